/**
 * Menu savings: how much smaller a menu is than the full menu it replaces, in percent.
 *
 *   menu_savings_pct = 100 * (full_menu_tokens - menu_tokens) / full_menu_tokens
 *
 * null when the full menu is empty (no savings to speak of). Provenance `computed`. The live
 * headline "menu savings through the proxy" is this over the live menus (not stored in the
 * report: the schema has no field for it, so the dashboard reads it through this one formula).
 */
export function menuSavingsPct(fullMenuTokens: number, menuTokens: number): number | null {
  return fullMenuTokens > 0 ? (100 * (fullMenuTokens - menuTokens)) / fullMenuTokens : null;
}
