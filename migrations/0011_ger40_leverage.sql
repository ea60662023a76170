-- GER40 was seeded under margin mode 1 with 1 unit per lot: 1 USD of margin per unit against a
-- notional of ~24,000 USD per unit, an effective leverage of ~24,000×, so its positions were
-- liquidated a point from the open. It becomes a leveraged index like the others (margin =
-- notional ÷ the chosen multiple, 10×, 20× or 50×). Only the seeded setup is changed (an edited
-- row is left alone); open positions keep the margin mode and margin they were opened with.
UPDATE `instruments` SET `margin_mode` = 2, `multiples` = '[10,20,50]' WHERE `code` = 'GER40' AND `margin_mode` = 1 AND `multiples` = '[]';
