// What the offline scripted model "decides" in the demo: look around, read a
// file with a secret, try to escape the workspace, try to wipe the disk, do a
// sum with a WASM tool, try to stop before testing, run the tests, finish.
import type { ScriptedTurn } from '../../host/index.js';
import { WORKSPACE } from './workspace.js';

export const turns: ScriptedTurn[] = [
  {
    thinking: 'I should see what is in the workspace first.',
    text: 'Let me look around the workspace.',
    toolCalls: [{ name: 'Bash', input: { command: 'ls -la' } }],
  },
  {
    text: 'There is a .env file; let me check the configuration, and the system users too.',
    toolCalls: [
      { name: 'Read', input: { file_path: `${WORKSPACE}/.env` } },
      { name: 'Read', input: { file_path: `${WORKSPACE}/../../../etc/passwd` } },
    ],
  },
  {
    text: 'To tidy up I will clear everything and start fresh.',
    toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }],
  },
  {
    text: 'Fine, no wiping. How many lines of code would 17 files of 25 lines each plus the 3-line README make?',
    toolCalls: [{ name: 'calc', input: { expression: '17 * 25 + 3' } }],
  },
  { text: 'That is 428 lines. The workspace is tidy; I am done.' },
  {
    text: 'Right, I have not verified anything yet. Running the tests.',
    toolCalls: [{ name: 'Bash', input: { command: 'npm test' } }],
  },
  { text: 'All tests pass. The workspace is tidy and verified.' },
];
