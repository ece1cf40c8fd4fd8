#!/bin/bash
# Write the worker config, then start the server.
cat > config.yml <<EOF
---
cache_transceiver_config:
  backend: NIXL
EOF
trtllm-serve "$MODEL" --config config.yml
