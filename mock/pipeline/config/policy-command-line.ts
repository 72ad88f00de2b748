/**
 * A policy's face on `npm start`'s command line: the flags that set its options and the files it
 * writes when the fake stops. A policy declares it beside its step (`step.commandLine`); the CLI
 * (mock/doors/cli/cli.ts) derives its flags, its help and its exit files from every policy's, so a
 * policy with a flag is one file, not an entry in the CLI's lists.
 */

/** How the command line reads a flag's text before createFake checks the value. */
type FlagReading =
  /** A whole number (createFake then names the rule it must meet). */
  | 'count'
  /** The text as given. */
  | 'text'
  /** Inline JSON (starting with `{`), else the path of a JSON file. */
  | 'json-or-file'
  /** A flag without a value (`--no-prefer`) that sets its option to false. */
  | 'off';

/** A flag that sets one of a policy's options. */
interface PolicyFlag {
  /** The flag without its dashes, e.g. `ban-threshold`. */
  readonly name: string;
  /** What follows it in the help, e.g. `<n>`. */
  readonly value: string;
  readonly help: string | readonly string[];
  /** The createFake option it sets, as a dotted path (`ban.threshold`): errors about it name the flag. */
  readonly option: string;
  readonly reads: FlagReading;
}

/** A file a policy writes when the fake stops, at the path a flag gives. */
interface PolicyExitFile<Control> {
  /** The flag without its dashes, e.g. `pact-out`. */
  readonly name: string;
  readonly help: string | readonly string[];
  /**
   * What the policy has to say when the fake stops, read once: a summary printed with or without
   * the flag, the file's text for a path (made only when it is written), and the line saying so.
   */
  readonly finish: (control: Control) => {
    readonly summary?: string;
    readonly text: (path: string) => string;
    readonly done: (path: string) => string;
  };
}

/** Everything a policy brings to the command line. */
export interface PolicyCommandLine<Control = never> {
  readonly flags?: readonly PolicyFlag[];
  readonly exitFiles?: readonly PolicyExitFile<Control>[];
}
