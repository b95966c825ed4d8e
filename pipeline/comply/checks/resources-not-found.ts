import { ANY_WIRE, BOTH_ERAS, defineCheck, fail, pass, specUrl } from '../judge/check.ts';
import { LEGACY, MODERN } from '../types.ts';
import { INVALID_PARAMS } from '../../mcp/envelope.ts';

export default defineCheck(
  {
    id: 'resources-not-found',
    title: 'Reading a missing resource is an error (2026-07-28: -32602), never empty contents',
    category: 'resources',
    severity: 'MUST',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'resources',
    prerequisites: ['lifecycle-handshake', 'resources-list'],
    probes: ['resources-read-missing', 'resources-list'],
    spec: {
      url: specUrl(MODERN, 'server/resources#error-handling'),
      requirement:
        'Server MUST answer a read of a resource that does not exist with an error (-32602 in 2026-07-28, -32002 in 2025-11-25), not with empty contents.',
    },
    knob: 'empty-contents-not-found',
    fix: 'Answer a read of an unknown URI with an error (-32602 in 2026-07-28), not a result.',
  },
  (v) => {
    const twin = v.x('resources-read') ? 'resources-read' : 'resources-list';
    const r = v.rejected('resources-read-missing', 'resources/read of an unknown URI', {
      twin,
      codes: v.rev === LEGACY ? undefined : [INVALID_PARAMS],
    });
    const res = v.result('resources-read-missing');
    if (r.status === 'fail' && res && Array.isArray(res.contents) && res.contents.length === 0)
      return fail('a missing resource came back as empty contents');
    const code = v.error('resources-read-missing')?.code;
    if (r.status === 'pass' && v.rev === LEGACY && code !== -32002)
      return pass(r.detail, [`2025-11-25 suggests -32002 for a missing resource; got ${code}`]);
    return r;
  },
);
