/**
 * The devices (`/?devices`): each with its name (a link to its page), template version and state
 * (with the last error's message when down), a remove button with a confirm step, and the form that
 * adds one.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { DataTable } from '../../shell/data-table.js';
import { errorMessage } from '../../shell/error-alert.js';
import { usePageTitle } from '../../shell/page-title.js';
import { followLink } from '../../shell/router.js';
import { AddDeviceForm } from './add-device-form.js';
import { deleteDevice, listDevices } from './devices-api.js';
import type { Device } from './device-wire.js';
import { DeviceStateText } from './device-state-text.js';
import { devicePath } from './templates-routes.js';
import { useTokenPrompt, type WriteAccess } from './write-token.js';

/** The devices page. */
export function DevicesPage({ access }: { readonly access: WriteAccess }) {
  usePageTitle('Devices');
  const [devices, setDevices] = useState<readonly Device[] | undefined>();
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [confirming, setConfirming] = useState<string | undefined>();
  // The service wants a token before it lists devices: say so instead of "Loading devices…".
  const [waitingForToken, setWaitingForToken] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const tokens = useTokenPrompt(access);
  const { asks } = tokens;
  // The interval's reads take the token given last.
  const token = useRef(access.token);
  token.current = access.token;

  const load = useCallback(
    function read(given: string | undefined = token.current): Promise<void> {
      return listDevices(given).then(
        (list) => {
          setDevices(list);
          setError('');
          setWaitingForToken(false);
        },
        (failure: unknown) => {
          // Device reads need a token by default: ask for it (again, if refused), then read with it.
          if (asks(failure, (next) => read(next))) {
            setWaitingForToken(true);
            return;
          }
          setError(`The devices could not be read: ${errorMessage(failure)}`);
        },
      );
    },
    // `asks` changes at each render; what it does does not.
    [],
  );
  useEffect(() => {
    void load();
    // States change while the page is open: read them again every 10 s.
    const timer = setInterval(() => void load(), 10_000);
    return () => clearInterval(timer);
  }, [load]);

  const remove = async (device: Device, token: string | undefined) => {
    setConfirming(undefined);
    try {
      await deleteDevice(device.id, token);
      setStatus(`Removed ${device.name}.`);
      await load();
      // Its row, which had the focus, is gone: the page's heading takes it.
      heading.current?.focus();
    } catch (failure) {
      if (tokens.asks(failure, (given) => remove(device, given))) return;
      setError(`${device.name} was not removed: ${errorMessage(failure)}`);
    }
  };

  return (
    <section aria-labelledby="tpl-devices-title">
      <h1 id="tpl-devices-title" ref={heading} tabIndex={-1}>
        Devices
      </h1>
      <p class="error" role="alert">
        {error}
      </p>
      <p role="status">{status}</p>
      {devices === undefined ? (
        <p aria-live="polite">
          {waitingForToken
            ? 'The devices are listed once the service has a token: enter it under Write token below.'
            : 'Loading devices…'}
        </p>
      ) : (
        <DataTable
          class="tpl-devices"
          caption="Devices"
          captionHidden
          rows={devices}
          rowKey={(device) => device.id}
          empty="No devices yet."
          columns={[
            {
              id: 'name',
              header: 'Name',
              rowHeader: true,
              sortValue: (device) => device.name,
              cell: (device) => (
                <a href={devicePath(device.id)} onClick={followLink}>
                  {device.name}
                </a>
              ),
            },
            {
              id: 'template',
              header: 'Template',
              sortValue: (device) => `${device.templateId}@${device.templateVersion}`,
              cell: (device) => `${device.templateId}@${device.templateVersion}`,
            },
            {
              id: 'state',
              header: 'State',
              sortValue: (device) => device.state,
              cell: (device) => <DeviceStateText device={device} />,
            },
            {
              id: 'actions',
              header: 'Actions',
              cell: (device) =>
                confirming === device.id ? (
                  <ConfirmRemove
                    name={device.name}
                    onConfirm={() => void remove(device, access.token)}
                    onCancel={() => {
                      setConfirming(undefined);
                      // The Remove button comes back and takes the focus again.
                      requestAnimationFrame(() =>
                        document.querySelector<HTMLElement>(`[data-remove="${CSS.escape(device.id)}"]`)?.focus(),
                      );
                    }}
                  />
                ) : (
                  <button
                    type="button"
                    aria-label={`Remove ${device.name}`}
                    data-remove={device.id}
                    onClick={() => setConfirming(device.id)}
                  >
                    Remove
                  </button>
                ),
            },
          ]}
        />
      )}
      {tokens.field}
      <AddDeviceForm
        access={access}
        onAdded={(device) => {
          setStatus(`Added ${device.name}.`);
          void load();
        }}
      />
    </section>
  );
}

/** The confirm step of a removal; its confirm button takes the focus the Remove button had. */
function ConfirmRemove(props: {
  readonly name: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) {
  const confirm = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => confirm.current?.focus(), []);
  return (
    <div class="row-actions">
      <button ref={confirm} type="button" class="primary" onClick={props.onConfirm}>
        Confirm remove {props.name}
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
