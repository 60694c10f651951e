-- Order per match across retries (delivery.md): a delivery waits while any earlier delivery of
-- its run on its channel is pending and not taken by the same claim (leased, or waiting for
-- its retry), so the claim looks for pending ones, leased or not.
DROP INDEX entrega_arrendada;
CREATE INDEX entrega_en_orden ON entrega (canal, ejecucion_id, aviso_id) WHERE estado = 'pendiente';
