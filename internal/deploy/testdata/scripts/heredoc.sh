#!/bin/bash
cat > ctx.yaml <<YAML
cache_transceiver_config:
  backend: NIXL
YAML
trtllm-serve m --config ctx.yaml
