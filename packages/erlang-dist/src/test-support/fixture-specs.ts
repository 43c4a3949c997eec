/**
 * The terms captured into `term-fixtures.generated.ts` by `scripts/capture-fixtures.ts`. Each spec pairs an
 * Erlang expression (evaluated by a real `erl`) with the TypeScript term we expect it to decode to,
 * written by hand as constructor calls. Specs with `hex` hold bytes written by hand for legacy tags
 * OTP no longer produces; `erl` then checks that `binary_to_term(Bytes) =:= Expression`.
 */
export interface FixtureSpec {
  readonly name: string;
  /** Erlang expression. */
  readonly erlang: string;
  /** TypeScript constructor expression of the decoded term; null when a dedicated test checks it. */
  readonly term: string | null;
  /** `term_to_binary` options (Erlang text); default `[{minor_version,2}]`, what OTP 26+ uses. */
  readonly options?: string;
  /** False when our encoder legitimately writes different bytes (legacy tags, compression). */
  readonly canonical?: boolean;
  /** Bytes that change between runs (funs carry the evaluating process' pid). */
  readonly volatile?: boolean;
  /** Hand-written bytes (hex, with the 131 version byte) for tags OTP 25 no longer writes. */
  readonly hex?: string;
}

const NONODE = '64000d' + Buffer.from('nonode@nohost').toString('hex'); // ATOM_EXT 'nonode@nohost'

export const fixtureSpecs: readonly FixtureSpec[] = [
  { name: 'small_integer_zero', erlang: '0', term: 'int(0)' },
  { name: 'small_integer_255', erlang: '255', term: 'int(255)' },
  { name: 'integer_256', erlang: '256', term: 'int(256)' },
  { name: 'integer_minus_one', erlang: '-1', term: 'int(-1)' },
  { name: 'integer_i32_min', erlang: '-2147483648', term: 'int(-2147483648)' },
  { name: 'integer_i32_max', erlang: '2147483647', term: 'int(2147483647)' },
  { name: 'small_big_2_pow_31', erlang: '2147483648', term: 'int(2147483648)' },
  { name: 'small_big_negative', erlang: '-2147483649', term: 'int(-2147483649)' },
  { name: 'small_big_max_safe', erlang: '9007199254740991', term: 'int(9007199254740991)' },
  { name: 'small_big_2_pow_53', erlang: '9007199254740992', term: 'int(9007199254740992n)' },
  { name: 'small_big_2_pow_64', erlang: '18446744073709551616', term: 'int(18446744073709551616n)' },
  { name: 'small_big_negative_2_pow_100', erlang: '-(1 bsl 100)', term: 'int(-(1n << 100n))' },
  { name: 'large_big_2_pow_2100', erlang: '1 bsl 2100', term: 'int(1n << 2100n)' },
  { name: 'large_big_negative', erlang: '-(1 bsl 2100) - 1', term: 'int(-(1n << 2100n) - 1n)' },
  { name: 'float_pi', erlang: '3.14159', term: 'float(3.14159)' },
  { name: 'float_negative_large', erlang: '-1.5e300', term: 'float(-1.5e300)' },
  { name: 'float_tiny', erlang: '5.0e-324', term: 'float(5e-324)' },
  {
    name: 'float_legacy_string',
    erlang: '3.14159',
    options: '[{minor_version,0}]',
    canonical: false,
    term: 'float(3.14159)',
  },
  { name: 'atom_ok', erlang: 'ok', term: "atom('ok')" },
  { name: 'atom_empty', erlang: "''", term: "atom('')" },
  { name: 'atom_utf8_latin1_range', erlang: 'list_to_atom([104,233,108,108,111])', term: "atom('h\\u00e9llo')" },
  { name: 'atom_utf8_cjk', erlang: 'list_to_atom([26085,26412])', term: "atom('\\u65e5\\u672c')" },
  { name: 'atom_255_chars', erlang: 'list_to_atom(lists:duplicate(255, $a))', term: "atom('a'.repeat(255))" },
  { name: 'atom_utf8_long', erlang: 'list_to_atom(lists:duplicate(100, 26085))', term: "atom('\\u65e5'.repeat(100))" },
  { name: 'atom_latin1_ext', erlang: 'ok', options: '[]', canonical: false, term: "atom('ok')" },
  {
    name: 'atom_latin1_ext_high',
    erlang: 'list_to_atom([104,233])',
    options: '[]',
    canonical: false,
    term: "atom('h\\u00e9')",
  },
  { name: 'small_atom_ext', erlang: 'ok', hex: '8373026f6b', canonical: false, term: "atom('ok')" },
  { name: 'tuple_empty', erlang: '{}', term: 'tuple()' },
  { name: 'tuple_ok_1', erlang: '{ok, 1}', term: "tuple(atom('ok'), int(1))" },
  {
    name: 'tuple_large_300',
    erlang: 'list_to_tuple(lists:seq(1, 300))',
    term: 'tuple(...Array.from({ length: 300 }, (_, i) => int(i + 1)))',
  },
  { name: 'nil', erlang: '[]', term: 'NIL' },
  { name: 'string_hello', erlang: '"hello"', term: "string('hello')" },
  { name: 'string_bytes', erlang: '[255, 0, 10]', term: "string('\\u00ff\\u0000\\n')" },
  { name: 'list_ints', erlang: '[1, 1000]', term: 'list([int(1), int(1000)])' },
  { name: 'list_unicode_chars', erlang: '[104, 26085]', term: 'list([int(104), int(26085)])' },
  { name: 'list_improper', erlang: '[1 | 2]', term: 'list([int(1)], int(2))' },
  { name: 'list_improper_atoms', erlang: '[a, b | c]', term: "list([atom('a'), atom('b')], atom('c'))" },
  { name: 'list_nested', erlang: '[[1], [a], []]', term: "list([string('\\u0001'), list([atom('a')]), NIL])" },
  { name: 'map_empty', erlang: '#{}', term: 'map([])' },
  {
    name: 'map_mixed',
    erlang: '#{a => 1, <<"b">> => [2]}',
    term: "map([[atom('a'), int(1)], [binary('b'), string('\\u0002')]])",
  },
  {
    name: 'map_nested',
    erlang: '#{x => #{y => {1, 2.5}}}',
    term: "map([[atom('x'), map([[atom('y'), tuple(int(1), float(2.5))]])]])",
  },
  { name: 'binary_empty', erlang: '<<>>', term: 'binary(new Uint8Array(0))' },
  { name: 'binary_bytes', erlang: '<<1, 2, 255>>', term: 'binary(Uint8Array.of(1, 2, 255))' },
  { name: 'binary_utf8', erlang: '<<"h\\303\\251">>', term: "binary('h\\u00e9')" },
  { name: 'bit_binary_3_bits', erlang: '<<1:3>>', term: 'bitBinary(Uint8Array.of(0x20), 3)' },
  { name: 'bit_binary_9_bits', erlang: '<<255, 1:1>>', term: 'bitBinary(Uint8Array.of(255, 0x80), 1)' },
  { name: 'pid', erlang: 'list_to_pid("<0.123.4>")', term: "pid('nonode@nohost', 123, 4, 0)" },
  {
    name: 'pid_ext_legacy',
    erlang: 'list_to_pid("<0.123.4>")',
    hex: `8367${NONODE}0000007b0000000400`,
    canonical: false,
    term: "pid('nonode@nohost', 123, 4, 0)",
  },
  { name: 'port', erlang: 'list_to_port("#Port<0.5>")', term: "port('nonode@nohost', 5, 0)" },
  {
    name: 'port_ext_legacy',
    erlang: 'list_to_port("#Port<0.5>")',
    hex: `8366${NONODE}0000000500`,
    canonical: false,
    term: "port('nonode@nohost', 5, 0)",
  },
  { name: 'reference', erlang: 'list_to_ref("#Ref<0.1.2.3>")', term: "reference('nonode@nohost', 0, [3, 2, 1])" },
  {
    name: 'new_reference_ext_legacy',
    erlang: 'list_to_ref("#Ref<0.1.2.3>")',
    hex: `83720003${NONODE}00000000030000000200000001`,
    canonical: false,
    term: "reference('nonode@nohost', 0, [3, 2, 1])",
  },
  {
    name: 'reference_ext_legacy',
    erlang: 'list_to_ref("#Ref<0.0.0.1>")',
    hex: `8365${NONODE}0000000100`,
    canonical: false,
    term: "reference('nonode@nohost', 0, [1])",
  },
  { name: 'export', erlang: 'fun lists:reverse/1', term: "exportFun('lists', 'reverse', 1)" },
  { name: 'fun_identity', erlang: 'fun(X) -> X end', term: null, volatile: true },
  { name: 'fun_with_free_var', erlang: '(fun() -> Y = 7, fun() -> Y end end)()', term: null, volatile: true },
  {
    name: 'compressed_list',
    erlang: 'lists:duplicate(100, hello)',
    options: '[compressed, {minor_version,2}]',
    canonical: false,
    term: "list(Array.from({ length: 100 }, () => atom('hello')))",
  },
  {
    name: 'rpc_badrpc_undef',
    erlang: "{rex, {badrpc, {'EXIT', {undef, [{nonexistent_mod, foo, [], []}]}}}}",
    term:
      "tuple(atom('rex'), tuple(atom('badrpc'), tuple(atom('EXIT'), tuple(atom('undef'), " +
      "list([tuple(atom('nonexistent_mod'), atom('foo'), NIL, NIL)])))))",
  },
  {
    name: 'memory_proplist',
    erlang: '[{total, 123456789012}, {processes, 5000000}, {atom, 0}]',
    term:
      "list([tuple(atom('total'), int(123456789012)), tuple(atom('processes'), int(5000000)), " +
      "tuple(atom('atom'), int(0))])",
  },
  {
    name: 'nested_mixed',
    erlang: '{a, [{b, #{c => [d]}}], <<"x">>, -7, 1.0}',
    term:
      "tuple(atom('a'), list([tuple(atom('b'), map([[atom('c'), list([atom('d')])]]))]), " +
      "binary('x'), int(-7), float(1))",
  },
];
