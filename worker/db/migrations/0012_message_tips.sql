-- A tip sent from a conversation is a message too: its note is the text, tip_cents the amount the fan paid the
-- creator (the payment and the message are written in one batch, worker/domain/money/send-tip.ts).
ALTER TABLE messages ADD COLUMN tip_cents INTEGER NOT NULL DEFAULT 0 CHECK (tip_cents >= 0);
