/**
 * The templates area (template service): the registry, the editor, the devices and a device's
 * page. The shell renders it inside `<main>` (apps/console/README.md); it talks only to its own
 * service, same origin. The token for devices (reads need one by default, writes always), once
 * given, lives here in memory only.
 */
import { useMemo, useState } from 'preact/hooks';
import type { AreaProps } from '../../shell/area-props.js';
import { Link } from '../../shell/link.js';
import { DevicePage } from './device-page.js';
import { DevicesPage } from './devices-page.js';
import { EditorPage } from './editor-page.js';
import { RegistryPage } from './registry-page.js';
import { DEVICES_PATH, REGISTRY_PATH, parseTemplatesPath } from './templates-routes.js';
import type { WriteAccess } from './write-token.js';
import './templates-area.css';

/** The area's root component: its navigation and the page its path names. */
export default function TemplatesArea({ path }: AreaProps) {
  const route = parseTemplatesPath(path);
  const [token, setToken] = useState<string | undefined>();
  const access: WriteAccess = useMemo(() => ({ token, setToken }), [token]);
  return (
    <>
      <nav class="subnav" aria-label="Templates">
        <ul>
          <li>
            <Link href={REGISTRY_PATH} current={route.page === 'registry'}>
              Registry
            </Link>
          </li>
          <li>
            <Link href={DEVICES_PATH} current={route.page === 'devices'}>
              Devices
            </Link>
          </li>
        </ul>
      </nav>
      {route.page === 'editor' ? (
        <EditorPage key={`${route.templateId}/${route.templateVersion}`} {...route} access={access} />
      ) : route.page === 'device' ? (
        <DevicePage key={route.deviceId} deviceId={route.deviceId} access={access} />
      ) : route.page === 'devices' ? (
        <DevicesPage access={access} />
      ) : (
        <RegistryPage />
      )}
    </>
  );
}
