import type { Db } from '../../../db/client.ts';
import type { CommandAction } from '../../commands.ts';

/** A 2.0.1 frame to send, and how its answer reads in the callers' (1.6) shape. */
export interface Ocpp201Command {
  action: string;
  params: Record<string, unknown>;
  answer(response: Record<string, unknown>): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** An intent with no 2.0.1 counterpart here: answered NotSupported (saying why), never sent. */
export interface Unsupported {
  unsupported: string;
}

/** An intent answered without a frame (a GetConfiguration naming only keys 2.0.1 does not have). */
export interface AnsweredHere {
  local: Record<string, unknown>;
}

export type Ocpp201Translation = Ocpp201Command | Unsupported | AnsweredHere;

export type Translate = (
  db: Db,
  chargerId: string,
  params: Record<string, unknown>,
) => Ocpp201Translation | Promise<Ocpp201Translation>;

export type Translations = Partial<Record<CommandAction, Translate>>;

export const same = (response: Record<string, unknown>) => response;

/** A request id for a 2.0.1 frame: the caller's (hints), else a fresh one (positive int32). */
export const requestIdOf = (params: Record<string, unknown>): number => {
  const hints = params.ocpp201 as { requestId?: unknown } | undefined;
  return typeof hints?.requestId === 'number' ? hints.requestId : Math.floor(Math.random() * 2 ** 31);
};

/** Copies the given optional fields that are set. */
export const defined = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));
