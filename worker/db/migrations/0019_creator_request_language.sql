-- The language the member applied in: the admin's decision is mailed in it, not in the admin's own.
-- Requests from before read English.
ALTER TABLE creator_requests ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
