import { injectionCheck } from '../judge/injection-verdict.ts';

export default injectionCheck({
  id: 'security-sql-injection',
  kind: 'sql',
  knob: 'sql-injection',
  title: 'A SQL payload in a read-only tool argument draws no database error',
  why: 'Arguments must reach a database only as bound parameters.',
  fix: 'Use parameterized queries; never splice arguments into SQL text.',
});
