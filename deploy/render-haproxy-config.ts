/** Ports of a test run: a frontend's listening port, a backend's instance ports, by name. */
export interface HaproxyTestPorts {
  readonly frontends: Readonly<Record<string, number>>;
  readonly servers: Readonly<Record<string, readonly number[]>>;
}

/** The global section of a run in the foreground as an ordinary user: no chroot, user or socket. */
const TEST_GLOBAL = 'global\n    maxconn 1000\n';

/**
 * The example configuration as a test runs it: its `global` section replaced by a foreground one,
 * each named frontend bound to 127.0.0.1 on the given port, and the `server` lines of each named
 * backend pointed at the given instance ports in order (their options kept). Frontends and
 * backends not named are dropped, with the `use_backend` rules that point at dropped backends.
 *
 * @throws Error when a named section is missing or a backend has fewer server lines than ports.
 */
export function renderHaproxyConfig(text: string, ports: HaproxyTestPorts): string {
  const sections = text.split(/\n(?=[a-z])/);
  const kept: string[] = [];
  for (const section of sections) {
    const [kind, name] = section.split('\n', 1)[0]?.trim().split(/\s+/) ?? [];
    if (kind === 'global') kept.push(TEST_GLOBAL);
    else if (kind === 'frontend' && name !== undefined && ports.frontends[name] !== undefined) {
      kept.push(
        section
          .replace(/^(\s+bind )\S+/m, (_line, head: string) => `${head}127.0.0.1:${ports.frontends[name]}`)
          .replace(/^\s+use_backend (\S+).*\n?/gm, (line, backend: string) =>
            ports.servers[backend] !== undefined ? line : '',
          ),
      );
    } else if (kind === 'backend' && name !== undefined && ports.servers[name] !== undefined) {
      const wanted = ports.servers[name];
      let index = 0;
      const rendered = section.replace(/^(\s+server \S+ )\S+(.*)\n?/gm, (_line, head: string, rest: string) => {
        const port = wanted[index++];
        return port === undefined ? '' : `${head}127.0.0.1:${port}${rest}\n`;
      });
      if (index < wanted.length) throw new Error(`backend ${name} has ${index} server lines, ${wanted.length} needed`);
      kept.push(rendered);
    } else if (kind !== 'frontend' && kind !== 'backend') kept.push(section);
  }
  for (const name of [...Object.keys(ports.frontends), ...Object.keys(ports.servers)]) {
    if (!kept.some((section) => new RegExp(`^(frontend|backend) ${name}\\b`).test(section))) {
      throw new Error(`no frontend or backend named ${name}`);
    }
  }
  return kept.join('\n');
}
