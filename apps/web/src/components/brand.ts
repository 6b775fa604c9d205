/** How the product names itself on its pages. */
export const SYSTEM_NAME = 'EV Charging System';
export const COMPANY_NAME = 'EV Charging Thailand';
