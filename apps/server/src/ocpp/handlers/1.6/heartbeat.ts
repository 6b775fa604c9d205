import type { CallHandler } from '../context.ts';

/** Heartbeat: our clock (any frame from the charger already marked it seen). */
export const heartbeat: CallHandler = () => ({ currentTime: new Date().toISOString() });
