export { isObject } from './is-object.js';
export { seededRandom, randomInt, randomItem, type RandomSource } from './seeded-random.js';
export { thrownBy } from './thrown-by.js';
export { ConcurrencyLimit } from './concurrency-limit.js';
export { errorCode } from './error-code.js';
export { errorMessage } from './error-message.js';
export { innerMap } from './inner-map.js';
export { startModuleWorker } from './start-module-worker.js';
