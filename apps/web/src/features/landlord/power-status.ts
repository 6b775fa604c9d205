import type { PowerSessionItem } from '@ev/shared';

/** How the Live load table shows a session's state (issue 34): a tag, its colour and what it means. */
export interface PowerTag {
  text: string;
  color: 'green' | 'blue' | 'orange' | 'red';
  /** Shown on hover and focus. */
  tooltip: string;
}

/**
 * The tags of one session: waiting (the limit cannot give it its minimum yet), and the charger's answer to its
 * profile. A charger that refused the profile, or is offline, or answered anything else than Accepted, is
 * counted at its full power so the others stay under the limit: red, and the tooltip says so.
 */
export function powerTags(session: Pick<PowerSessionItem, 'waiting' | 'profileStatus'>): PowerTag[] {
  const tags: PowerTag[] = [];
  if (session.waiting) {
    tags.push({
      text: 'Waiting',
      color: 'orange',
      tooltip: "The limit can't give it its minimum now: it waits at 0 kW until a share frees up.",
    });
  }
  const status = session.profileStatus;
  if (status === 'Accepted') {
    if (!session.waiting) {
      tags.push({ text: 'Accepted', color: 'green', tooltip: 'The charger applies its allowance.' });
    }
  } else if (status === 'Pending') {
    tags.push({
      text: 'Pending',
      color: 'blue',
      tooltip: 'Its allowance was sent; the charger has not answered yet.',
    });
  } else if (status === 'None') {
    // The limit was removed while the screen showed it: nothing is sent any more.
    tags.push({
      text: 'No limit',
      color: 'blue',
      tooltip: "The site has no limit now: nothing is sent, it may draw its connector's maximum.",
    });
  } else if (status === 'Offline') {
    tags.push({
      text: 'Offline',
      color: 'red',
      tooltip:
        'The charger is offline and cannot be told its allowance: it is counted at its full power, so the other sessions stay under the limit.',
    });
  } else {
    tags.push({
      text: status || 'Unknown',
      color: 'red',
      tooltip: `The charger refused its allowance (${status || 'no answer'}): it is counted at its full power, so the other sessions stay under the limit.`,
    });
  }
  return tags;
}
