// AI credits: the published prices and how a spend is worded, for every surface.
export type { ModelPrice, PriceTable, SpecCredits, TokenSpend } from '../credits/pricing';
export { COPILOT_PRICES, creditsOf, findPrice, formatCredits, readProviderPrice, withOverrides } from '../credits/pricing';
export { draftingBudget, MessageTokens, recordDrafting, type DraftingBudget } from '../credits/draftingCredits';
