// What the terminal's permission question must show (h6, and a lone field's name: session 36), shared by test/cli/h6.approval-question.test.ts
// (host/) and test/xrt/approval-question.xrt.ts (Node, Deno and Bun): no imports from host/.

/** C0 but tab and newline, DEL, C1, and the bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** What is wrong with `question` (ask.ts `permissionQuestion`), as lines; empty when nothing is. */
export function approvalQuestionProblems(question: (toolName: string, input: unknown) => string): string[] {
  const problems: string[] = [];
  const expectIn = (what: string, q: string, wanted: string) => {
    if (!q.includes(wanted)) problems.push(`${what}: ${JSON.stringify(q)} does not show ${JSON.stringify(wanted)}`);
  };
  // Past the 60 characters of the one-line label: the tail that does the harm.
  const long = `echo "checking the project files before the build, please wait a moment"; rm -rf ~`;
  expectIn('long command', question('Bash', { command: long }), 'rm -rf ~');
  // A newline is a second command to the shell; folded to a space it read as the echo's argument.
  const lines = question('Bash', { command: 'echo hi\nrm -rf ~' });
  expectIn('multi-line command', lines, 'echo hi\\nrm -rf ~');
  // A field past the label's cut in a many-field input.
  const many = question('Bash', { command: 'npm test', description: 'runs the unit tests of the project', dangerouslyDisableSandbox: true });
  expectIn('many fields', many, '"dangerouslyDisableSandbox": true');
  // Runs of spaces are what runs too (a heredoc, a quoted argument).
  expectIn('padded', question('Write', { file_path: '/proj/a', content: 'x      y' }), 'x      y');
  // Still printable (red12), shown whole or not.
  for (const q of [question('Bash', { command: `${'a'.repeat(70)}\u001b[2K\u202e` }), question('Bash', { command: 'ls\u001b[1G' })]) {
    if (UNSAFE.test(q)) problems.push(`unsafe character in ${JSON.stringify(q)}`);
  }
  // The short, plain case keeps its one line, with its field's name: a lone field that is not the command
  // (`dangerouslyDisableSandbox: "true"`) read as `Bash(true)`.
  const short = question('Bash', { command: 'ls -la' });
  if (!short.startsWith('Allow Bash(command: ls -la)? ')) problems.push(`short command: ${JSON.stringify(short)}`);
  expectIn('lone field', question('Bash', { dangerouslyDisableSandbox: 'true' }), 'dangerouslyDisableSandbox: true');
  return problems;
}
