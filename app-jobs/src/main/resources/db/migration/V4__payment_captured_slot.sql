-- Which job slot captured each payment: the record that lets anyone check a slot's captures after the fact.
ALTER TABLE payments ADD COLUMN captured_slot timestamptz;
