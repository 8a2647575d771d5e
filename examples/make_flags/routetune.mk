# routetune.mk: the route of a routetune lock for a GNU Make (4.2 or later) build, failing loudly.
# Include it from a Makefile, then compile with $(ROUTETUNE_FLAGS); the route's environment
# values are exported to every recipe. Every make run checks the lock again (`routetune flags
# LOCK --format make`): when routetune is not installed, or the lock is missing, unreadable or
# stale, make stops here with routetune's message and builds nothing. To build the spec's
# default route on purpose (logged in the lock's audit log):
#   make ROUTETUNE_FALLBACK=1 ROUTETUNE_SPEC=spec.toml
# Objects that depend on $(ROUTETUNE_ROUTE_FILE) rebuild exactly when the route changes.
ROUTETUNE ?= routetune
ROUTETUNE_LOCK ?= routetune.lock.json
ROUTETUNE_ROUTE_FILE ?= .routetune-route.mk
ROUTETUNE_FALLBACK_ARGS := $(if $(ROUTETUNE_FALLBACK),--fallback $(if $(ROUTETUNE_SPEC),--spec $(ROUTETUNE_SPEC)))

$(shell $(ROUTETUNE) flags $(ROUTETUNE_LOCK) --format make $(ROUTETUNE_FALLBACK_ARGS) > $(ROUTETUNE_ROUTE_FILE).new)
ROUTETUNE_STATUS := $(.SHELLSTATUS)
ifneq ($(ROUTETUNE_STATUS),0)
$(shell rm -f $(ROUTETUNE_ROUTE_FILE).new)
$(error routetune flags $(ROUTETUNE_LOCK) failed (exit $(ROUTETUNE_STATUS))$(if $(filter 127,$(ROUTETUNE_STATUS)),: $(ROUTETUNE) is not installed (put it on PATH or set ROUTETUNE=/path/to/routetune); nothing is built without the lock's route,; see its message above. Nothing is built without the lock's route; `make ROUTETUNE_FALLBACK=1 ROUTETUNE_SPEC=<spec>` builds the spec's default route on purpose))
endif
$(shell cmp -s $(ROUTETUNE_ROUTE_FILE).new $(ROUTETUNE_ROUTE_FILE) || cp $(ROUTETUNE_ROUTE_FILE).new $(ROUTETUNE_ROUTE_FILE); rm -f $(ROUTETUNE_ROUTE_FILE).new)
include $(ROUTETUNE_ROUTE_FILE)
