import { atom, list, listElements, NIL, string, tuple, tupleOf, type Term } from '@triad/erlang-dist';
import { COLLECTOR_RPC_TIMEOUT_MS, type RpcCaller } from './collector.js';
import { erlangTermText } from './erlang-term-text.js';

/**
 * Erlang expressions evaluated on a managed node through standard OTP modules (`erl_scan`,
 * `erl_parse`, `erl_eval`): no module is loaded there. The text is parsed on the first node asked
 * and the parsed form reused for every node (it does not depend on the node).
 *
 * The expressions run inside a fun called at once (`(fun() -> ... end)().`): `erl_eval:exprs`
 * answers every variable bound at the top level beside the value, and a bound fun carries the
 * parsed text of its whole body, so the system-limit reading answered 96 KB for a value of 139
 * bytes. Inside a fun, only the caller's bindings come back.
 */
export class ErlangExpression {
  readonly source: string;
  readonly #wrapped: string;
  #parsed: Term | undefined;

  /** `source`: expressions separated by commas, ending with a full stop. */
  constructor(source: string) {
    this.source = source;
    const body = source.trimEnd();
    this.#wrapped = `(fun() ->\n${body.endsWith('.') ? body.slice(0, -1) : body}\nend)().`;
  }

  /**
   * The value of the expressions on the node. `bindings` are variables bound before evaluation
   * (`{Limit: int(20)}` binds `Limit`): values travel as terms, never as text, so a caller's input
   * cannot become code on the node.
   * @throws Error when the node cannot parse the text or the evaluation fails (`{badrpc, _}`).
   */
  async evaluate(
    rpc: RpcCaller,
    nodeId: string,
    timeoutMs = COLLECTOR_RPC_TIMEOUT_MS,
    bindings: Readonly<Record<string, Term>> = {},
  ): Promise<Term> {
    const call = (module: string, fn: string, args: Term[]) => rpc.rpc(nodeId, module, fn, args, { timeoutMs });
    if (!this.#parsed) {
      const scanned = tupleOf(await call('erl_scan', 'string', [string(this.#wrapped)]), 3);
      if (scanned?.[0]?.type !== 'atom' || scanned[0].name !== 'ok')
        throw new Error('erl_scan failed on an expression');
      const parsed = await call('erl_parse', 'parse_exprs', [scanned[1]!]);
      const exprs = tupleOf(parsed, 2);
      if (exprs?.[0]?.type !== 'atom' || exprs[0].name !== 'ok')
        throw new Error(`erl_parse failed: ${erlangTermText(parsed)}`);
      this.#parsed = exprs[1];
    }
    // erl_eval takes an orddict: `{Name, Value}` pairs sorted by name.
    const names = Object.keys(bindings).sort();
    const bound = names.length === 0 ? NIL : list(names.map((name) => tuple(atom(name), bindings[name]!)));
    const reply = await call('erl_eval', 'exprs', [this.#parsed!, bound]);
    const value = tupleOf(reply, 3);
    if (value?.[0]?.type !== 'atom' || value[0].name !== 'value')
      throw new Error(`evaluation failed: ${erlangTermText(reply)}`);
    return value[1]!;
  }
}

/** An integer term as a number; undefined for anything else. */
export function integerOf(term: Term | undefined): number | undefined {
  return term?.type === 'integer' ? Number(term.value) : undefined;
}

/** A charlist (or UTF-8 binary) as text; undefined for other terms. */
export function textOf(term: Term | undefined): string | undefined {
  if (!term) return undefined;
  if (term.type === 'string') return term.value;
  if (term.type === 'nil') return '';
  if (term.type === 'binary') return new TextDecoder().decode(term.bytes);
  const elements = listElements(term);
  if (!elements?.every((e) => e.type === 'integer')) return undefined;
  return String.fromCodePoint(...elements.map((e) => Number(e.value)));
}
