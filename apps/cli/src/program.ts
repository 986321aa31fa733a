/**
 * The `cloudg-mcp` command: serve, tools, resources, prompts, call, read, config. Only the command
 * a command line names is defined (command-table.ts), so `--help` loads commander and nothing
 * of the workspace, and each command loads what it uses.
 */
import { Command, CommanderError, Help } from 'commander';
import { COMMANDS } from './command-table.js';
import { type CliIo, processIo } from './io.js';

/** The command a command line names: its first word, or the one after `help`. */
function namedCommand(argv: readonly string[]): string | undefined {
  // The program's own options (--help, --version) take no value, so the first word is the command.
  const words = argv.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/** Whether the line asks for the version (before any command, where the option belongs). */
function asksVersion(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '-V' || arg === '--version') return true;
    if (!arg.startsWith('-')) return false;
  }
  return false;
}

async function buildProgram(argv: readonly string[], io: CliIo, setExit: (code: number) => void) {
  // The version is the server's; its package loads only when the version is asked for.
  const version = asksVersion(argv) ? (await import('@cloudg/server')).SERVER_VERSION : '';
  const terms = new Map(COMMANDS.map((entry) => [entry.name, entry.term]));
  const program = new Command('cloudg-mcp')
    .description('cloudg MCP server: a governed cloud security inventory for AI agents')
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError(false)
    .configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? new Help().subcommandTerm(cmd) });

  const named = namedCommand(argv);
  for (const entry of COMMANDS) {
    const command = program.command(entry.name).description(entry.description);
    if (entry.name === named) (await entry.load()).define(command, io, setExit);
  }
  return program;
}

/** Run the CLI; resolves with the exit status instead of exiting, so tests can call it. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  try {
    const program = await buildProgram(argv, io, (code) => {
      exitCode = code;
    });
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    // Help and version exit 0; usage errors were already printed by commander.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const { reportFailure } = await import('./failure.js');
    return reportFailure(error, io);
  }
}
