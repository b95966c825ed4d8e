import { injectionCheck } from '../judge/injection-verdict.ts';

export default injectionCheck({
  id: 'security-command-injection',
  kind: 'command',
  knob: 'command-injection',
  title: 'A shell payload in a read-only tool argument is not executed',
  why: 'A payload such as "; id" must never reach a shell.',
  fix: 'Never build shell commands from arguments; pass them as argv to execFile, or validate against an allow-list.',
});
