import { readFileSync } from 'node:fs';
import jsYaml from 'js-yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CodeAction, CompletionItem, Diagnostic, Hover, Location, Position } from 'vscode-languageserver/node';
import { createStarterTemplate } from '../starters/driver-starters.js';
import { startTestClient, type TestClient } from './test-support/lsp-test-client.js';

const yamlText = readFileSync(new URL('../../examples/icmp-host.ndst.yaml', import.meta.url), 'utf8');
const template = jsYaml.load(yamlText) as { datapointSets: { datapoints: unknown[] }[] };
// The first alert also reads the datapoint by id, so there is a reference to follow.
const jsonText = JSON.stringify(template, null, 2).replace(
  '"expression": "datapoint.value === false"',
  '"expression": "datapoint.value === false && datapoints.reachable.value === false"',
);
const URI = 'file:///work/host.ndst.json';

function positionOf(text: string, needle: string, delta = 0): Position {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`not in text: ${needle}`);
  const before = text.slice(0, offset + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

describe('template language server', () => {
  let client: TestClient;
  beforeEach(async () => {
    client = await startTestClient({ debounceMs: 5 });
  });
  afterEach(() => client.close());

  const open = async (uri: string, text: string, languageId = 'json') => {
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
    return (await client.nextDiagnostics(uri)).diagnostics;
  };

  it('publishes a clean template with no diagnostics', async () => {
    expect(await open(URI, jsonText)).toEqual([]);
  });

  it('underlines an enum typo and an unknown datapoint id, then clears them when fixed', async () => {
    const broken = jsonText
      .replace('"datapointSetType": "map"', '"datapointSetType": "mapp"')
      .replace('datapoints.reachable.value', 'datapoints.reachabel.value');
    const diagnostics = await open(URI, broken);
    const byCode = new Map(diagnostics.map((d) => [d.code, d]));
    expect(byCode.get('DT_ERR_SCHEMA_ENUM')?.range).toEqual({
      start: positionOf(broken, '"mapp"'),
      end: positionOf(broken, '"mapp"', 6),
    });
    expect(byCode.get('DT_ERR_EXPR_DATAPOINT_UNKNOWN')?.range).toEqual({
      start: positionOf(broken, 'reachabel'),
      end: positionOf(broken, 'reachabel', 9),
    });
    expect(byCode.get('DT_ERR_EXPR_DATAPOINT_UNKNOWN')?.source).toBe('triad');

    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ text: jsonText }],
    });
    expect((await client.nextDiagnostics(URI)).diagnostics).toEqual([]);
  });

  it('offers a suggestion as a quick fix that replaces the token', async () => {
    const broken = jsonText.replace('datapoints.reachable.value', 'datapoints.reachabel.value');
    const diagnostics = await open(URI, broken);
    const diagnostic = diagnostics.find((d) => d.code === 'DT_ERR_EXPR_DATAPOINT_UNKNOWN') as Diagnostic;
    const actions: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    expect(actions).toHaveLength(1);
    expect(actions[0]?.edit?.changes?.[URI]).toEqual([{ range: diagnostic.range, newText: 'reachable' }]);
  });

  it('completes keys the object lacks, enum values, and datapoint ids in expressions', async () => {
    const text = jsonText.replace('"datapointId": "reachable",', '"datapointId": "reachable",\n"",');
    await open(URI, jsonText);
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [{ text }],
    });
    await client.nextDiagnostics(URI);
    const complete = (position: Position) =>
      client.connection.sendRequest<CompletionItem[]>('textDocument/completion', {
        textDocument: { uri: URI },
        position,
      });
    const keys = (await complete(positionOf(text, '"reachable",\n""', 14))).map((i) => i.label);
    expect(keys).toContain('description');
    expect(keys).not.toContain('datapointId');
    const values = (await complete(positionOf(text, '"map"', 1))).map((i) => i.label);
    expect(values).toEqual(expect.arrayContaining(['map', 'tableStatic']));
    const ids = await complete(positionOf(text, 'datapoints.reachable', 11));
    expect(ids.map((i) => i.label)).toEqual(expect.arrayContaining(['reachable']));
    const fields = await complete(positionOf(text, 'datapoints.reachable.value', 21));
    expect(fields.map((i) => i.label)).toEqual(['value', 'rawValue', 'quality', 'timestamp']);
  });

  it('completes discovery variables after /{ in origin', async () => {
    const text = jsonText.replace('"origin": "/{ICMP_IPAddress}/"', '"origin": "/{"');
    await open(URI, text);
    const items: CompletionItem[] = await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri: URI },
      position: positionOf(text, '"origin": "/{', 13),
    });
    expect(items.map((i) => i.label)).toContain('ICMP_IPAddress');
    expect(items.find((i) => i.label === 'ICMP_IPAddress')?.textEdit?.newText).toBe('ICMP_IPAddress}/');
  });

  it('hovers a key with its description and allowed values', async () => {
    await open(URI, jsonText);
    const hover: Hover = await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: URI },
      position: positionOf(jsonText, 'datapointSetType', 3),
    });
    const value = (hover.contents as { value: string }).value;
    expect(value).toContain('**datapointSetType**');
    expect(value).toContain('`"map"`');
  });

  it('hovers a datapoint id in an expression with its alias', async () => {
    await open(URI, jsonText);
    const hover: Hover = await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: URI },
      position: positionOf(jsonText, 'datapoints.reachable', 13),
    });
    expect((hover.contents as { value: string }).value).toBe('**reachable** (DATAPOINT)\n\nReachable');
  });

  it('goes from a datapoint id in an expression to its datapoint', async () => {
    await open(URI, jsonText);
    const location: Location = await client.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: URI },
      position: positionOf(jsonText, 'datapoints.reachable', 13),
    });
    expect(location.range.start).toEqual(positionOf(jsonText, '"reachable"'));
  });

  it('underlines an unknown key in YAML and completes keys there', async () => {
    const uri = 'file:///work/host.ndst.yaml';
    const broken = yamlText.replace('          alias: Reachable', '          alais: Reachable');
    const diagnostics = await open(uri, broken, 'yaml');
    const unknown = diagnostics.find((d) => d.code === 'DT_WARN_QUIRK_COMMON_CONFIG_KEY');
    expect(unknown?.range).toEqual({ start: positionOf(broken, 'alais'), end: positionOf(broken, 'alais', 5) });
    const actions: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: unknown?.range,
      context: { diagnostics: [unknown] },
    });
    expect(actions[0]?.edit?.changes?.[uri]?.[0]?.newText).toBe('alias');
    const items: CompletionItem[] = await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: positionOf(broken, 'alais', 2),
    });
    expect(items.map((i) => i.label)).toContain('description');
    expect(items.map((i) => i.label)).not.toContain('datapointId');
  });

  it('warns on a literal password as the user types it, and offers the variable as a quick fix', async () => {
    const uri = 'file:///work/host.ndst.yaml';
    const secret = yamlText.replace(
      '  - originType: svc-ds-drv-icmp\n',
      '  - originType: svc-ds-drv-icmp\n    password: s3cret\n',
    );
    expect(secret).not.toBe(yamlText);
    const diagnostics = await open(uri, secret, 'yaml');
    const warning = diagnostics.find((d) => d.code === 'DT_WARN_SEM_SECRET_LITERAL');
    expect(warning?.severity).toBe(2); // Warning
    expect(warning?.range).toEqual({ start: positionOf(secret, 's3cret'), end: positionOf(secret, 's3cret', 6) });
    expect(warning?.message).toContain('use a variable such as /{ICMP_PASSWORD}/');
    const actions: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: warning?.range,
      context: { diagnostics: [warning] },
    });
    expect(actions[0]?.edit?.changes?.[uri]).toEqual([{ range: warning?.range, newText: '"/{ICMP_PASSWORD}/"' }]);
  });

  it('completes and follows datapoint ids in a YAML expression', async () => {
    const uri = 'file:///work/host.ndst.yaml';
    const text = yamlText.replace(
      'expression: datapoint.value === false',
      'expression: datapoints.reachable.value === false',
    );
    expect(await open(uri, text, 'yaml')).toEqual([]);
    const items: CompletionItem[] = await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: positionOf(text, 'datapoints.reachable', 11),
    });
    expect(items.map((i) => i.label)).toContain('reachable');
    const location: Location = await client.connection.sendRequest('textDocument/definition', {
      textDocument: { uri },
      position: positionOf(text, 'datapoints.reachable', 14),
    });
    expect(location.range.start).toEqual(positionOf(text, 'reachable'));
  });
});

describe('template language server when the editor is quiet', () => {
  it('loads the text in full after some incremental validations, and publishes the same diagnostics', async () => {
    const client = await startTestClient({ debounceMs: 5, idleReloadAfter: 3, idleReloadMs: 20 });
    try {
      const uri = 'file:///work/host.ndst.yaml';
      const text = yamlText.replace('datapointSetType: map', 'datapointSetType: mapp');
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text },
      });
      await client.nextDiagnostics(uri);
      // Three one-character edits inside a value (validated without a full load), each waited for.
      const at = positionOf(text, 'alias: Ping', 7);
      let last: Diagnostic[] = [];
      for (let version = 2; version <= 4; version++) {
        await client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [
            { range: { start: at, end: { ...at, character: at.character + 1 } }, text: version % 2 ? 'P' : 'p' },
          ],
        });
        last = (await client.nextDiagnostics(uri)).diagnostics;
      }
      expect(last.map((d) => d.code)).toEqual(['DT_ERR_SCHEMA_ENUM']);
      // No further change: the quiet-time reload publishes again, for the same version, the same problems.
      const reloaded = await client.nextDiagnostics(uri);
      expect(reloaded.version).toBe(4);
      expect(reloaded.diagnostics).toEqual(last);
    } finally {
      await client.close();
    }
  });
});

describe('template language server, MIB names', () => {
  let client: TestClient;
  afterEach(() => client.close());

  it('underlines an SNMP address whose MIB name the given resolver does not know, and not a known one', async () => {
    const known = new Map([['IF-MIB::ifDescr.1', '1.3.6.1.2.1.2.2.1.2.1']]);
    client = await startTestClient({
      debounceMs: 5,
      oidNames: (name) => {
        const oid = known.get(name);
        return oid ? { oid } : { message: `no module read gives ${name}` };
      },
    });
    // The SNMP starter (valid, no warnings) with its first address replaced.
    const snmp = (address: string) => {
      const starter = createStarterTemplate('snmp', { templateId: 'mib-lsp' }) as {
        datapointSets: { datapoints: { addressConfig: { originAddress: string } }[] }[];
      };
      starter.datapointSets[0]!.datapoints[0]!.addressConfig.originAddress = address;
      return JSON.stringify(starter, null, 2);
    };
    const uri = 'file:///work/mib.ndst.json';
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'json', version: 1, text: snmp('IF-MIB::ifDescr.1') },
    });
    expect((await client.nextDiagnostics(uri)).diagnostics).toEqual([]);
    const unknown = snmp('IF-MIB::ifDescrr.1');
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: unknown }],
    });
    const [problem] = (await client.nextDiagnostics(uri)).diagnostics;
    expect(problem?.code).toBe('DT_ERR_SEM_SNMP_NAME_UNKNOWN');
    expect(problem?.message).toContain('no module read gives IF-MIB::ifDescrr.1');
    expect(problem?.range.start).toEqual(positionOf(unknown, '"IF-MIB::ifDescrr.1"'));
  });
});
