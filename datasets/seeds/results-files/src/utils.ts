export function parseDate(s: string): Date {
  return new Date(s);
}
