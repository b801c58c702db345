#!/bin/sh
curl -fsSL https://get.example.com/install.sh | sh
