import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { errorCode, errorMessage } from '@triad/common';
import type { DeviceTemplate } from '../generated/device-template.generated.js';
import { fromJsonPointer } from '../problem.js';
import { formatEventLine, formatValueLine } from '../pipeline/format-output.js';
import type { PipelineEvent, PipelineInput, PipelineSink, TemplateEvaluator } from '../pipeline/pipeline-types.js';
import { createTemplateEvaluator } from '../pipeline/template-evaluator.js';
import { TemplateEvaluatorError } from '../pipeline/template-evaluator-error.js';
import { readUpdateStream, type StreamItem } from '../pipeline/update-stream.js';
import { validateSource } from '../validate.js';
import { EXIT, raiseExit, type CliIo } from './cli-io.js';

/** Output formats of `triad templates eval`. */
export const EVAL_FORMATS = ['text', 'json'] as const;
export type EvalFormat = (typeof EVAL_FORMATS)[number];

export interface EvalCommandOptions {
  /**
   * Standard input as a stream, so that `--values -` is processed line by line as it arrives.
   * Default: `process.stdin` when `io` writes to the process's stdout, else `io.readStdin()` whole.
   */
  readonly stdin?: () => AsyncIterable<Uint8Array | string>;
}

/**
 * Adds `triad templates eval <template> --values <file|->`: runs datapoint updates through the
 * template's value pipeline and prints the resulting values and events. Exit codes: 0 done;
 * 1 the template is invalid or cannot be evaluated, an input line is not JSON or was rejected, or
 * an expression failed (an `evaluation-error` event); 2 usage or I/O error.
 */
export function addEvalCommand(templates: Command, io: CliIo, options: EvalCommandOptions = {}): void {
  templates
    .command('eval')
    .description(
      "Run datapoint updates through a template's value pipeline; print the values and the alarm, log and error events",
    )
    .argument('<template>', 'template file (*.ndst.json, *.ndst.yml, *.ndst.yaml)')
    .requiredOption(
      '--values <file>',
      'updates as JSON Lines (one per line, processed as they stream in) or one JSON array; "-" reads standard input',
    )
    .addOption(
      new Option('-f, --format <format>', 'output: one text line, or one JSON object, per value and per event')
        .choices(EVAL_FORMATS)
        .default('text'),
    )
    .option('--origin <origin>', "origin of updates that name none (default: the template's origin)")
    .addHelpText(
      'after',
      [
        '',
        'An update is {"datapointSetId", "datapointId", "rawValue"?, "value"?, "quality"?, "timestamp"?, ' +
          '"tableIndex"?, "origin"?};',
        'also {"datapointSetId", "tableIndex", "removed": true} (drop a tableDynamic row) and',
        '{"datapointSetId", "rows": [[{"datapointId", "rawValue"}, ...], ...]} (a whole table).',
        '',
        'Exit codes: 0 done; 1 invalid template, malformed or rejected input, or a failing expression; ' +
          '2 usage or I/O error.',
        'Example:',
        '  printf \'%s\\n\' \'{"datapointSetId":"system","datapointId":"packetLoss","rawValue":12}\' \\',
        '    | triad templates eval switch.ndst.yaml --values -',
        '  RAISE 401 warning system/packetLoss: Packet loss above 10 % (value 12)',
        '  VALUE system/packetLoss = 12',
      ].join('\n'),
    )
    .action(async (templateFile: string, opts: { values: string; format: EvalFormat; origin?: string }) => {
      if (templateFile === '-' && opts.values === '-') {
        io.stderr.write('triad: the template and --values cannot both be standard input\n');
        raiseExit(io, EXIT.USAGE);
        return;
      }
      const evaluator = await loadEvaluator(io, templateFile, opts.origin);
      if (evaluator === undefined) return;
      const chunks = openValues(io, opts.values, options);
      if (chunks === undefined) return;
      await runUpdates(
        io,
        evaluator.evaluator,
        evaluator.origin,
        chunks,
        opts.values === '-' ? '<stdin>' : opts.values,
        opts.format,
      );
    });
}

async function loadEvaluator(
  io: CliIo,
  file: string,
  origin: string | undefined,
): Promise<{ evaluator: TemplateEvaluator; origin: string } | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = file === '-' ? await io.readStdin() : await readFile(path.resolve(io.cwd, file));
  } catch (error) {
    io.stderr.write(`triad: cannot read ${file}: ${readFailure(error)}\n`);
    raiseExit(io, EXIT.USAGE);
    return undefined;
  }
  const name = file === '-' ? '<stdin>' : file;
  const result = validateSource(bytes, { file: name });
  if (!result.valid || result.document === undefined) {
    for (const p of result.errors)
      io.stderr.write(`${p.line > 0 ? `${name}:${p.line}:${p.column}` : name}: error: ${p.message} [${p.code}]\n`);
    io.stderr.write(`triad: ${name} is not a valid template; see: triad templates validate ${name}\n`);
    raiseExit(io, EXIT.INVALID);
    return undefined;
  }
  const document = result.document;
  try {
    const template = document.value as DeviceTemplate;
    return {
      evaluator: createTemplateEvaluator(template, origin !== undefined ? { origin } : {}),
      origin: origin ?? template.origin,
    };
  } catch (error) {
    if (!(error instanceof TemplateEvaluatorError)) throw error;
    for (const issue of error.issues) {
      const path = fromJsonPointer(issue.path);
      // An expression issue points inside the expression string when the loader can tell where.
      const at =
        (issue.offset !== undefined ? document.positionInString?.(path, issue.offset) : undefined) ??
        document.positionOf(path);
      io.stderr.write(`${name}:${at.line}:${at.column}: error: ${issue.message} [${issue.code}]\n`);
    }
    io.stderr.write(`triad: ${name} cannot be evaluated\n`);
    raiseExit(io, EXIT.INVALID);
    return undefined;
  }
}

function openValues(
  io: CliIo,
  file: string,
  options: EvalCommandOptions,
): AsyncIterable<Uint8Array | string> | undefined {
  if (file === '-') {
    if (options.stdin) return options.stdin();
    if (io.stdout === process.stdout) return process.stdin;
    return (async function* () {
      yield await io.readStdin();
    })();
  }
  return createReadStream(path.resolve(io.cwd, file));
}

async function runUpdates(
  io: CliIo,
  evaluator: TemplateEvaluator,
  origin: string,
  chunks: AsyncIterable<Uint8Array | string>,
  name: string,
  format: EvalFormat,
): Promise<void> {
  let out: string[] = [];
  let failed = false;
  let current: StreamItem | undefined;
  const where = (item: StreamItem) => `${name}:${item.line}${item.item !== undefined ? ` (item ${item.item})` : ''}`;
  const report = (event: PipelineEvent): void => {
    if (event.type === 'update-rejected') {
      io.stderr.write(`${current ? where(current) : name}: rejected: ${event.message} [${event.code}]\n`);
      failed = true;
      return;
    }
    if (event.type === 'evaluation-error') failed = true;
    out.push(format === 'json' ? JSON.stringify(event) : formatEventLine(event, origin));
  };
  const sink: PipelineSink = {
    value: (result) =>
      void out.push(format === 'json' ? JSON.stringify({ type: 'value', ...result }) : formatValueLine(result, origin)),
    event: report,
  };
  try {
    for await (const item of readUpdateStream(chunks, (error) => {
      io.stderr.write(`${name}:${error.line}: ${error.message}\n`);
      failed = true;
    })) {
      current = item;
      evaluator.feed(item.value as PipelineInput, sink);
      // Flush when the input pauses (or the buffer grows): streams stay live, files are written in blocks.
      if (out.length > 0 && (item.endOfChunk === true || out.length >= 1024)) {
        io.stdout.write(out.join('\n') + '\n');
        out = [];
      }
    }
  } catch (error) {
    io.stderr.write(`triad: cannot read ${name}: ${readFailure(error)}\n`);
    raiseExit(io, EXIT.USAGE);
  }
  if (out.length > 0) io.stdout.write(out.join('\n') + '\n');
  if (failed) raiseExit(io, EXIT.INVALID);
}

/** Why a file could not be read, for `triad: cannot read <file>: <why>`. */
function readFailure(error: unknown): string {
  return errorCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error);
}
