/**
 * The spec's section anchors per revision, as recorded data (datasets/spec/anchors.json, with
 * its source and date): a check's spec.url must name a page and anchor listed for its revision.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../constants.ts';

export interface AnchorList {
  source: string;
  retrieved: string;
  urlBase: string;
  aliases: Record<string, string>;
  revisions: Record<string, Record<string, string[]>>;
}

export const ANCHORS_FILE = join(REPO_ROOT, 'datasets', 'spec', 'anchors.json');

export function loadAnchors(file = ANCHORS_FILE): AnchorList {
  return JSON.parse(readFileSync(file, 'utf8')) as AnchorList;
}

/** Why a spec URL does not hold (null = page and anchor are in the list). */
export function anchorProblem(url: string, list: AnchorList): string | null {
  if (!url.startsWith(list.urlBase)) return `not under ${list.urlBase}`;
  const rest = url.slice(list.urlBase.length);
  const [pathPart, anchor] = rest.split('#', 2);
  const slash = pathPart.indexOf('/');
  const rev = slash < 0 ? pathPart : pathPart.slice(0, slash);
  const page0 = slash < 0 ? '' : pathPart.slice(slash + 1);
  const pages = list.revisions[rev];
  if (!pages) return `revision ${rev} is not recorded`;
  const page = list.aliases[page0] ?? page0;
  const anchors = pages[page];
  if (!anchors) return `page ${page0} is not recorded for ${rev}`;
  if (anchor !== undefined && !anchors.includes(anchor)) return `anchor #${anchor} is not a section of ${rev}/${page}`;
  return null;
}
