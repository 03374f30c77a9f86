-- Dashboard → Fans lists a creator's live subscribers newest first, keyset-paged over (started_at, id): without
-- this index each page would read every live subscription of the creator and sort them. (Followers page through
-- follows_creator, which already ends in follower_id.)
CREATE INDEX subscriptions_creator_started ON subscriptions(creator_id, started_at, id) WHERE status IN ('active', 'cancelled');
