import { SERVER_SCHEMA_OPTIONS, briefAjvError, compileSchema } from '../../util/schema.ts';
import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, isObj, pass, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

export default defineCheck(
  {
    id: 'tools-structured-output',
    title: 'A tool with an outputSchema returns structuredContent that validates against it',
    category: 'tools',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-call-structured', 'tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#output-schema'),
      requirement: 'Server MUST return, for a tool with an outputSchema, structuredContent that validates against that schema.',
    },
    knob: 'structured-mismatch',
    fix: 'Return structuredContent matching the declared outputSchema.',
  },
  (v) => {
    const e = v.x('tools-call-structured');
    if (!e) return { status: 'not_applicable', reason: 'no_population', detail: 'no callable tool declares an outputSchema' };
    const gate = v.unusable('tools-call-structured');
    if (gate) return gate;
    const r = v.result('tools-call-structured');
    if (!r)
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: `the call was refused (${v.error('tools-call-structured')?.code ?? e.error?.detail})`,
      };
    if (r.isError === true || r.resultType === 'input_required')
      return { status: 'not_evaluable', reason: 'no_population', detail: 'the call ended in a tool error; nothing structured to check' };
    const name = JSON.parse(e.request.body).params?.name;
    const tool = v.list('tools-list', 'tools').find((t) => t.name === name);
    if (!tool || !isObj(tool.outputSchema)) return { status: 'not_evaluable', reason: 'no_population', detail: 'tool no longer listed' };
    if (!('structuredContent' in r)) return fail(`${name} declares an outputSchema but returned no structuredContent`);
    let validate;
    try {
      // the dialect keyword is dropped: 2020-12 validates the draft-07 schemas SDKs emit
      const { $schema: _dialect, ...schema } = tool.outputSchema;
      validate = compileSchema(schema, SERVER_SCHEMA_OPTIONS);
    } catch (err) {
      return {
        status: 'not_evaluable',
        reason: 'no_population',
        detail: `outputSchema of ${name} does not compile: ${(err as Error).message}`,
      };
    }
    return validate(r.structuredContent)
      ? pass(`${name}: structuredContent validates`)
      : fail(`${name}: structuredContent does not match outputSchema (${briefAjvError(validate.errors?.[0])})`);
  },
);
