/**
 * The differential check against the published NetinDS template schema, run by hand
 * (docs/decisions/0021-published-schema-fidelity.md):
 *
 *   curl -o /tmp/netinds.json <the published schema's address>
 *   node --conditions=source --import tsx packages/device-templates/scripts/differential-check.ts /tmp/netinds.json
 *
 * It draws the seeded mutations of our fixtures (test/differential/mutate-template.ts),
 * validates each with ajv against the published schema and with Triad's validator, prints every
 * disagreement, and writes the published verdicts to test/differential/published-verdicts.jsonl,
 * which `differential.test.ts` replays. The published schema is read from the path given and
 * never copied into the repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import ajvKeywords from 'ajv-keywords';
import { mutateFixtures } from '../test/differential/mutate-template.js';
import { DIFFERENTIAL_RUN, VERDICTS_FILE, differentialFixtures } from '../test/differential/differential-fixtures.js';
import { triadVerdict } from '../test/differential/triad-verdict.js';

type KeywordsPlugin = (ajv: Ajv, keywords: string[]) => Ajv;
const addKeywords: KeywordsPlugin =
  typeof ajvKeywords === 'function' ? ajvKeywords : (ajvKeywords as unknown as { default: KeywordsPlugin }).default;

const schemaPath = process.argv[2];
if (schemaPath === undefined) {
  process.stderr.write('usage: differential-check.ts <published-schema.json>\n');
  process.exit(2);
}

// The published schema carries annotation keywords ajv does not know (errorMessage,
// markdownDescription); strict mode off ignores them, as NetinDS's own setup does.
const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: false });
addKeywords(ajv, ['uniqueItemProperties']);
const published = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>);

const mutations = mutateFixtures(differentialFixtures(), DIFFERENTIAL_RUN.perFixture, DIFFERENTIAL_RUN.seed);
const lines: string[] = [];
const tally = { same: 0, deliberate: 0, schemaOnly: 0, publishedValid: 0 };
for (const { id, document } of mutations) {
  const publishedValid = published(document);
  const triad = triadVerdict(document);
  lines.push(JSON.stringify({ id, published: publishedValid }));
  if (publishedValid) tally.publishedValid++;
  if (publishedValid === triad.valid) tally.same++;
  else if (triad.deliberate !== undefined) {
    tally.deliberate++;
    process.stdout.write(`deliberate  ${id}: published ${verdict(publishedValid)}, ${triad.deliberate}\n`);
  } else {
    tally.schemaOnly++;
    const why = publishedValid ? triad.codes.join(' ') : JSON.stringify(published.errors?.slice(0, 3) ?? []);
    process.stdout.write(
      `DIFFERENT   ${id}: published ${verdict(publishedValid)}, Triad ${verdict(triad.valid)}: ${why}\n`,
    );
  }
}
writeFileSync(VERDICTS_FILE, lines.join('\n') + '\n');
process.stdout.write(
  `${mutations.length} mutations (${tally.publishedValid} valid for the published schema): ` +
    `${tally.same} same verdict, ${tally.deliberate} explained by a deliberate difference, ` +
    `${tally.schemaOnly} where only the schema decides\n`,
);

function verdict(valid: boolean): string {
  return valid ? 'accepts' : 'rejects';
}
