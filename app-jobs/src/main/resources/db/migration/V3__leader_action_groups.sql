-- Fences are per election group; record the group so each group's epochs can be audited on their own.
ALTER TABLE leader_actions ADD COLUMN group_name text NOT NULL DEFAULT 'jobs';
