/** Text forms of Erlang terms as `io_lib:format("~p", ...)` prints them, for WombatOAM-shaped fields. */

const RESERVED = new Set(
  (
    'after and andalso band begin bnot bor bsl bsr bxor case catch cond div end fun if let not of or orelse ' +
    'receive rem try when xor maybe else'
  ).split(' '),
);

/** An atom: bare when it is a plain lower-case atom (letters, digits, `_`, `@`), else single-quoted. */
export function erlangAtom(name: string): string {
  if (/^[a-z][A-Za-z0-9_@]*$/.test(name) && !RESERVED.has(name)) return name;
  return `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A string (charlist) in double quotes. */
export function erlangString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Width of the pretty printer's line. */
const LINE_WIDTH = 80;

/**
 * A tuple whose elements are already printed, laid out as `~p` does for flat elements: on one
 * line when it fits in 80 columns, else the first element stays beside the brace and the rest
 * fill lines indented to the column after `{First,`.
 */
export function erlangTuple(elements: readonly string[]): string {
  const flat = `{${elements.join(',')}}`;
  if (flat.length <= LINE_WIDTH || elements.length < 2) return flat;
  const head = `{${elements[0]},`;
  const indent = ' '.repeat(head.length);
  const lines: string[] = [];
  let line = head;
  const rest = elements.slice(1);
  rest.forEach((element, index) => {
    const piece = element + (index === rest.length - 1 ? '}' : ',');
    if (line.length > indent.length && line !== head && line.length + piece.length > LINE_WIDTH) {
      lines.push(line);
      line = indent;
    } else if (line === head && line.length + piece.length > LINE_WIDTH && index > 0) {
      lines.push(line);
      line = indent;
    }
    line += piece;
  });
  lines.push(line);
  return lines.join('\n');
}

/** The alarm source record WombatOAM sends back as `rawSrc`. */
export function alarmSourceText(nodeId: string, nodeName: string, custom: string, server: string): string {
  return erlangTuple([
    'wo_alarm_source',
    erlangString(nodeId),
    erlangAtom(nodeName),
    erlangAtom(custom),
    erlangAtom(server),
  ]);
}

/** `{Mega,Sec,Micro}` of an instant in microseconds since the epoch. */
export function eventIdOf(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  return `{${Math.floor(seconds / 1_000_000)},${seconds % 1_000_000},${us % 1_000_000}}`;
}

/** The instant of an event id in microseconds; undefined when the text is not `{Mega,Sec,Micro}`. */
export function parseEventId(text: string): number | undefined {
  const match = /^\{(\d{1,7}),(\d{1,6}),(\d{1,6})\}$/.exec(text);
  if (!match) return undefined;
  const [mega, sec, micro] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (sec >= 1_000_000 || micro >= 1_000_000) return undefined;
  return (mega * 1_000_000 + sec) * 1_000_000 + micro;
}

/** `eventTime` of an event: the same instant in milliseconds with the microseconds dropped (as WombatOAM). */
export function eventTimeOf(us: number): number {
  return Math.floor(us / 1_000_000) * 1000;
}
