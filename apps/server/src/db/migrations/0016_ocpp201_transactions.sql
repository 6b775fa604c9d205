-- Issue 33: an OCPP 2.0.1 transaction's charging state as of its newest TransactionEvent (charging stopped = a turn
-- to EVConnected or Idle after charging, for chargers that end a transaction only at the cable's removal).
ALTER TABLE "charging_sessions" ADD COLUMN "charging_state" text;