/**
 * The templates area (template service): the registry, the editor, the devices and a device's
 * page. The shell renders it inside `<main>` (apps/console/README.md); it talks only to its own
 * service, same origin. The token for devices (reads need one by default, writes always), once
 * given, is kept for the browser session (`sessionStorage`, never `localStorage`).
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
import { isText, sessionKeep } from '../../shell/session-keep.js';

/** The write token kept for the browser session. */
const KEPT_TOKEN = sessionKeep('templates.token', isText);

/** The area's root component: its navigation and the page its path names. */
export default function TemplatesArea({ path, navigate }: AreaProps) {
  const route = parseTemplatesPath(path);
  // Said once on the page a save opened (the editor on the saved version), keyed by that path.
  const [saved, setSaved] = useState<{ readonly path: string; readonly notice: string } | undefined>();
  const [token, setTokenState] = useState<string | undefined>(() => KEPT_TOKEN.read());
  const access: WriteAccess = useMemo(
    () => ({
      token,
      setToken: (next: string | undefined) => {
        if (next === undefined) KEPT_TOKEN.clear();
        else KEPT_TOKEN.write(next);
        setTokenState(next);
      },
    }),
    [token],
  );
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
        <EditorPage
          key={`${route.templateId}/${route.templateVersion}`}
          {...route}
          access={access}
          navigate={navigate}
          notice={saved?.path === path ? saved.notice : undefined}
          onSaved={(savedPath, notice) => setSaved({ path: savedPath, notice })}
        />
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
