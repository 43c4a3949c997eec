import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { validateSource } from '../validate.js';
import type { ValidationResult } from '../problem.js';
import { DEFAULT_LOAD_LIMITS } from '../loading/load-document.js';
import { createStarterTemplate, STARTER_DRIVERS, type StarterDriver } from '../starters/driver-starters.js';
import { renderStarter } from '../starters/render-starter.js';
import { REPORT_FORMATS, renderReport, summarize, type ReportFormat } from './reporters.js';
import { EXIT, raiseExit, type CliIo } from './cli-io.js';
import { readInputs } from './read-inputs.js';
import { addEvalCommand } from './eval-command.js';
import { addLspCommand } from '../lsp/lsp-command.js';
import type { OidNameResolver } from '../semantics/check-snmp-addresses.js';

/** Absolute path of the shipped JSON Schema file (works from src/ and dist/). */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema/device-template.schema.json', import.meta.url));

/** Options of `triad templates validate` as commander parses them. */
interface ValidateOptions {
  readonly format: ReportFormat;
  readonly strict: boolean;
  readonly inputFormat?: 'json' | 'yaml';
  readonly quiet: boolean;
  readonly mibDirs?: string;
  readonly mibs: boolean;
}

/** What `triad templates` gets from the layers above it (the CLI wires the SNMP driver's MIB reader). */
export interface TemplatesCommandOptions {
  /**
   * Resolves MIB names (`IF-MIB::ifDescr.1`) in SNMP addresses, reading the given directories
   * before the system's modules; without it `validate` checks their form only.
   */
  readonly oidNames?: (directories: readonly string[]) => OidNameResolver;
  /** Environment read for `TRIAD_MIB_DIRS`; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A colon-separated list of directories (`TRIAD_MIB_DIRS`, `--mib-dirs`), empty entries ignored. */
function directoryList(value: string | undefined): string[] {
  return (value ?? '')
    .split(':')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
}

/** Files validated before a progress bar appears on an interactive terminal. */
const PROGRESS_THRESHOLD = 20;

/**
 * `triad templates ...`: validate, init and schema. Commands report through `io` and set
 * `io.exitCode` (0 valid, 1 invalid, 2 usage or I/O error).
 */
export function createTemplatesCommand(io: CliIo, version: string, options: TemplatesCommandOptions = {}): Command {
  const templates = new Command('templates').description(
    'Work with device templates (*.ndst.json, *.ndst.yml, *.ndst.yaml)',
  );

  templates
    .command('validate')
    .description(
      'Validate templates against the schema and the semantic checks; print every problem at file:line:column',
    )
    .argument('<files...>', 'files, directories (searched for *.ndst.*) or glob patterns; "-" reads standard input')
    .addOption(new Option('-f, --format <format>', 'report format').choices(REPORT_FORMATS).default('text'))
    .option('--strict', 'treat warnings as errors', false)
    .addOption(
      new Option('--input-format <format>', 'how to parse standard input (default: detect)').choices(['json', 'yaml']),
    )
    .option('-q, --quiet', 'text format: print only the summary line and problems, not valid files', false)
    .option(
      '--mib-dirs <dirs>',
      "directories of MIB modules (colon-separated) read before the system's to resolve names such as " +
        'IF-MIB::ifDescr.1 (default: TRIAD_MIB_DIRS)',
    )
    .option('--no-mibs', 'check SNMP addresses for their form only, without reading MIB modules')
    .addHelpText(
      'after',
      '\nSNMP addresses given as MIB names are resolved from --mib-dirs (or TRIAD_MIB_DIRS), then the\n' +
        "system's modules (/usr/share/snmp/mibs) and the IETF modules shipped with Triad.\n" +
        '\nExit codes: 0 every file is valid, 1 at least one file is invalid, 2 usage or I/O error.\n' +
        'Examples:\n' +
        '  triad templates validate switch.ndst.yaml\n' +
        '  triad templates validate "templates/**/*.ndst.*" --format sarif > report.sarif\n' +
        '  triad templates validate -q templates/\n' +
        '  cat t.json | triad templates validate - --strict',
    )
    .action(async (files: string[], opts: ValidateOptions) => {
      const inputs = await readInputs(files, {
        cwd: io.cwd,
        maxBytes: DEFAULT_LOAD_LIMITS.maxBytes,
        readStdin: () => io.readStdin(),
      });
      const bar =
        inputs.length >= PROGRESS_THRESHOLD && io.stderr.isTTY
          ? new SingleBar({ stream: process.stderr, clearOnComplete: true }, Presets.shades_classic)
          : undefined;
      bar?.start(inputs.length, 0);
      const directories = directoryList(opts.mibDirs ?? (options.env ?? process.env)['TRIAD_MIB_DIRS']);
      const oidNames = opts.mibs && options.oidNames ? options.oidNames(directories) : undefined;
      const results: ValidationResult[] = [];
      for (const input of inputs) {
        if ('ioError' in input) {
          io.stderr.write(`triad: cannot read ${input.file}: ${input.ioError}\n`);
          raiseExit(io, EXIT.USAGE);
        } else {
          const format = input.file === '<stdin>' ? opts.inputFormat : undefined;
          const { valid, file, errors, warnings } = validateSource(input.bytes, {
            file: input.file,
            strict: opts.strict,
            ...(format ? { format } : {}),
            ...(oidNames ? { oidNames } : {}),
          });
          results.push({ valid, file, errors, warnings });
        }
        bar?.increment();
      }
      bar?.stop();
      if (results.length > 0 || opts.format !== 'text') {
        io.stdout.write(renderReport(opts.format, results, version, { quiet: opts.quiet, baseDirectory: io.cwd }));
      }
      if (summarize(results).invalid > 0) raiseExit(io, EXIT.INVALID);
    });

  templates
    .command('init')
    .description('Write a starter template for a driver: its configuration keys and one example datapoint set')
    .addOption(
      new Option('-d, --driver <driver>', 'driver of the device').choices(STARTER_DRIVERS).makeOptionMandatory(),
    )
    .option('--yaml', 'write YAML (default when the output file ends in .yml or .yaml)', false)
    .option('-o, --output <file>', 'file to write (default: standard output)')
    .option('--template-id <id>', 'templateId of the new template (default: example-<driver>)')
    .option(
      '--schema <ref>',
      'schema reference: the YAML modeline (default: path of the installed schema); JSON gets $schema only ' +
        'with this option, as NetinDS refuses it',
    )
    .option('--force', 'overwrite an existing output file', false)
    .addHelpText(
      'after',
      '\nExample:\n  triad templates init --driver snmp -o switch.ndst.yaml\n' +
        '  triad templates validate switch.ndst.yaml',
    )
    .action(
      async (opts: {
        driver: StarterDriver;
        yaml: boolean;
        output?: string;
        templateId?: string;
        schema?: string;
        force: boolean;
      }) => {
        const target = opts.output ? path.resolve(io.cwd, opts.output) : undefined;
        if (target && existsSync(target) && !opts.force) {
          io.stderr.write(`triad: ${opts.output} already exists; use --force to overwrite it\n`);
          raiseExit(io, EXIT.USAGE);
          return;
        }
        const format = opts.yaml || (target !== undefined && /\.ya?ml$/i.test(target)) ? 'yaml' : 'json';
        const schemaRef =
          opts.schema ?? (format === 'yaml' ? relativeSchemaRef(target ? path.dirname(target) : io.cwd) : undefined);
        const text = renderStarter(
          createStarterTemplate(opts.driver, opts.templateId ? { templateId: opts.templateId } : {}),
          format,
          schemaRef,
        );
        if (!target) {
          io.stdout.write(text);
          return;
        }
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, text);
        io.stderr.write(
          `wrote ${opts.output} (${format}, driver ${opts.driver}); ` +
            `check it with: triad templates validate ${opts.output}\n`,
        );
      },
    );

  templates
    .command('schema')
    .description('Print the device-template JSON Schema (draft-07), for editors and other validators')
    .option('-o, --output <file>', 'file to write (default: standard output)')
    .action(async (opts: { output?: string }) => {
      const text = readFileSync(SCHEMA_FILE, 'utf8');
      if (opts.output) await writeFile(path.resolve(io.cwd, opts.output), text);
      else io.stdout.write(text.endsWith('\n') ? text : text + '\n');
    });

  addEvalCommand(templates, io);
  addLspCommand(templates, () => options.oidNames?.(directoryList((options.env ?? process.env)['TRIAD_MIB_DIRS'])));
  return templates;
}

function relativeSchemaRef(fromDir: string): string {
  const relative = path.relative(fromDir, SCHEMA_FILE).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
