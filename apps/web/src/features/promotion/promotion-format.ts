import { PROMOTION_TYPES, type Promotion, type PromotionType } from '@ev/shared';

/** The screens of each type, by the menu's labels (document 1's menu: Promotion Code, Point Code, Code). */
export const PROMOTION_SCREENS: Record<PromotionType, { list: string; setting: string; newLabel: string }> = {
  discount: { list: 'Promotion Code', setting: 'Promotion Code Setting', newLabel: 'New Promotion' },
  point: { list: 'Point Code', setting: 'Point Code Setting', newLabel: 'New Promotion' },
  landlord: {
    list: 'Private Station Code',
    setting: 'Private Station Code Setting',
    newLabel: 'New Promotion',
  },
};

/** The route's type, or undefined for any other (the page then shows the not-found result). */
export const promotionType = (param: string | undefined): PromotionType | undefined =>
  (PROMOTION_TYPES as readonly string[]).includes(param ?? '') ? (param as PromotionType) : undefined;

/** What a code gives: '10% up to 50.00 THB', '50.00 THB', '20 points', or the sites' membership. */
export function benefitText(
  promotion: Pick<Promotion, 'type' | 'discountPercent' | 'discountBaht' | 'point'>,
) {
  const baht = (value: number) => `${value.toLocaleString('en-US', { minimumFractionDigits: 2 })} THB`;
  if (promotion.type === 'point') return `${(promotion.point ?? 0).toLocaleString('en-US')} points`;
  if (promotion.type === 'landlord') return 'Site membership';
  const percent = promotion.discountPercent ?? 0;
  const cap = promotion.discountBaht ?? 0;
  if (percent === 0) return baht(cap);
  return cap > 0 ? `${percent}% up to ${baht(cap)}` : `${percent}%`;
}
