#!/bin/sh
sh /tmp/setup.sh
