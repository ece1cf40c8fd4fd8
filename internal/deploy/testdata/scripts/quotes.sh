#!/bin/bash
MSG='it''s fine'
echo "path: \q"
