/** Where the Facebook, Instagram and LINE values lead: a stored web address as it is, a bare handle to its profile. */
const PROFILE_PAGES = {
  facebook: 'https://www.facebook.com/',
  instagram: 'https://www.instagram.com/',
  line: 'https://line.me/R/ti/p/',
} as const;

export type SocialNetwork = keyof typeof PROFILE_PAGES;

/** Only http(s) addresses are linked as typed, so a stored value can never run script. */
export function socialHref(network: SocialNetwork, value: string): string {
  const text = value.trim();
  if (/^https?:\/\//i.test(text)) return text;
  // LINE official accounts keep their '@' (line.me/R/ti/p/@id); the others drop it.
  const handle = network === 'line' ? text : text.replace(/^@/, '');
  return `${PROFILE_PAGES[network]}${encodeURIComponent(handle)}`;
}
