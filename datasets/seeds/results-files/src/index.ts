import { parseDate } from './utils';
export const start = (s: string) => parseDate(s);
