export { buildProgram, runCli } from './program.js';
