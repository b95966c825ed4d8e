import { ANY_WIRE, BOTH_ERAS, defineCheck, problems, specUrl } from '../judge/check.ts';
import { LEGACY } from '../types.ts';

const PHRASES = /ignore (?:all |any )?(?:previous|prior) instructions|system prompt|do not tell the user|<\s*important\s*>/i;
// zero-width and bidi control characters
const HIDDEN = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

export default defineCheck(
  {
    id: 'security-tool-poisoning',
    title: 'Tool names and descriptions carry no prompt-injection phrases or hidden characters',
    category: 'security',
    severity: 'best-practice',
    revisions: BOTH_ERAS,
    transports: ANY_WIRE,
    capability: 'tools',
    prerequisites: ['lifecycle-handshake', 'tools-list'],
    probes: ['tools-list'],
    spec: {
      url: specUrl(LEGACY, 'server/tools#security-considerations'),
      requirement:
        "Best practice: server's tool names and descriptions, which the model reads, carry no injected instructions or hidden characters (clients SHOULD distrust them anyway).",
    },
    knob: 'poisoned-description',
    fix: 'Describe what the tool does; no instructions to the model, no invisible characters.',
  },
  (v) => {
    const bad: string[] = [];
    for (const t of v.list('tools-list', 'tools')) {
      const text = `${String(t.name)} ${String(t.description ?? '')} ${JSON.stringify(t.inputSchema ?? {})}`;
      if (PHRASES.test(text)) bad.push(`${String(t.name)}: "${PHRASES.exec(text)![0]}"`);
      if (HIDDEN.test(text)) bad.push(`${String(t.name)}: hidden zero-width/bidi character`);
    }
    return problems(bad, 'no injection markers');
  },
);
