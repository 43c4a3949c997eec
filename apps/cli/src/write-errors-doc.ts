// `npm run docs:errors`: rewrites docs/errors.md from the error catalogues.
import { writeFileSync } from 'node:fs';
import { renderErrorsDoc } from './errors-doc.js';

writeFileSync(new URL('../../../docs/errors.md', import.meta.url), renderErrorsDoc());
console.log('wrote docs/errors.md');
