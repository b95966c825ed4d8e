import { injectionCheck } from '../judge/injection-verdict.ts';

export default injectionCheck({
  id: 'security-path-traversal',
  kind: 'traversal',
  knob: 'path-traversal',
  title: 'A ../ path in a read-only tool argument does not read files outside the served scope',
  why: 'Paths must be resolved and confined to the roots the server exposes.',
  fix: 'Resolve paths (realpath) and refuse anything outside the allowed roots.',
});
