import { injectionCheck } from '../judge/injection-verdict.ts';

export default injectionCheck({
  id: 'security-ssrf-internal',
  kind: 'ssrf',
  knob: 'ssrf-internal',
  title: 'A URL argument naming the cloud metadata address returns no internal data',
  why: 'A URL argument must not let a caller reach internal addresses such as 169.254.169.254.',
  fix: 'Resolve the host and refuse loopback, link-local and private ranges before fetching.',
  noTarget:
    'no tool annotated readOnlyHint:true takes a URL-like argument (the SSRF payload goes to URL arguments of read-only tools only)',
});
