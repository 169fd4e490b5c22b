// AI credits: the published prices and how a spend is worded, for every surface.
export type { ModelPrice, PriceTable, SpecCredits, TokenSpend } from '../credits/pricing';
export { COPILOT_PRICES, creditsOf, findPrice, formatCredits, readProviderPrice, withOverrides } from '../credits/pricing';
export { countDrafting, draftingBudget, MessageTokens, spendSaid, type DraftingBudget } from '../credits/draftingCredits';
export type { DraftingCount, DraftingSpend } from '../credits/draftingSpend';
