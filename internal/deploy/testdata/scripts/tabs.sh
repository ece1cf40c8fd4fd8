#!/bin/sh
for f in a b; do
	echo $f
done
