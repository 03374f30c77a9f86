-- Benchmark data (QUALITY.md sizes for the shell): 10,000 users, of which 1,000 creators; 50,000 follows;
-- 20,000 posts. Built with recursive CTEs so the file stays small. Password hashes are placeholders: nobody
-- signs in as these users.
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 10000)
INSERT INTO users (username, name, email, email_verified_at, password_hash, date_of_birth, account_type, role, created_at, updated_at)
SELECT printf('bench_%05d', n),
       (CASE n % 7 WHEN 0 THEN 'Mia' WHEN 1 THEN 'Noah' WHEN 2 THEN 'Lena' WHEN 3 THEN 'Omar' WHEN 4 THEN 'Yuki' WHEN 5 THEN 'Ana' ELSE 'Ivan' END)
         || ' ' || (CASE n % 5 WHEN 0 THEN 'Rivers' WHEN 1 THEN 'Stone' WHEN 2 THEN 'Meyer' WHEN 3 THEN 'Costa' ELSE 'Sato' END) || ' ' || n,
       printf('bench_%05d@example.test', n), '2026-01-01T00:00:00.000Z', 'x', '1990-01-01', 'other',
       CASE WHEN n % 10 = 0 THEN 'creator' ELSE 'member' END, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
FROM seq;

WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 49999)
INSERT OR IGNORE INTO follows (follower_id, creator_id, created_at)
SELECT f.id, c.id, '2026-02-01T00:00:00.000Z'
FROM seq
JOIN users f ON f.username = printf('bench_%05d', 1 + (n % 10000))
JOIN users c ON c.username = printf('bench_%05d', 10 * (1 + ((n * 7919) % 1000)))
WHERE f.id <> c.id;

WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 19999)
INSERT INTO posts (user_id, text, audience, published_at, created_at)
SELECT c.id, 'Bench post ' || n, 'everyone', strftime('%Y-%m-%dT%H:%M:%fZ', '2026-03-01', '+' || n || ' minutes'), '2026-03-01T00:00:00.000Z'
FROM seq JOIN users c ON c.username = printf('bench_%05d', 10 * (1 + (n % 1000)));
