-- /settings/subscriptions lists a fan's subscriptions, expired ones included, newest first: without this index
-- that list would scan every subscription.
CREATE INDEX subscriptions_fan ON subscriptions(fan_id, started_at DESC);
