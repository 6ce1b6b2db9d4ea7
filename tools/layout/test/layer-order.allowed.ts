/**
 * Imports that run up the layers, or pairs of files that import each other, in the packages not yet
 * converted to endpoint declarations and a domain layer (docs/adr/0016), as they stood when the
 * rule came. Each entry is a debt: the engineer who converts the package moves the rule or error
 * into `domain/` and removes its entries (the test fails on an entry that no longer holds); no entry
 * is ever added. Every package converted so far has none.
 */
export const LAYER_ORDER_ALLOWED: Record<string, readonly string[]> = {};
