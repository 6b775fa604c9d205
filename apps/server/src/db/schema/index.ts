export * from './bookings.ts';
export * from './catalog.ts';
export * from './ocpp.ts';
export * from './pages.ts';
export * from './places.ts';
export * from './promotions.ts';
export * from './reference.ts';
export * from './users.ts';
