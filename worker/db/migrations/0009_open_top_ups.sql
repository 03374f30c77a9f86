-- Top-ups still waiting for their provider, oldest first: the cron fails sandbox top-ups abandoned at the card form.
CREATE INDEX payments_open_top_ups ON payments(provider, created_at) WHERE status IN ('pending', 'requires_confirmation');
