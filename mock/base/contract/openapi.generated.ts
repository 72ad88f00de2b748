// Generated from openapi/petstore.yaml by scripts/generate-contract.ts: do not edit.
// Every internal $ref is inlined. Regenerate with `npm run generate`.
export const openapiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Pet Store",
    "version": "1.0.0",
    "summary": "Manage and browse animals available for adoption in a store.",
    "description": "Machine-readable form of the Pet Store interface, which `interface.md` beside this file restates\nin prose, section by section.\nWhere the interface says \"not shown\", this one says nothing either: the fake's own choices\nfor those points are documented in the project README, not here. The one exception is the\nstatuses: each operation lists every status the fake answers it with, so that a validator\nreading this document (Prism, Portman, openapi-backend) refuses any other, a 5xx above all.\nThose the interface does not list carry `x-not-in-interface: true`: refusals any HTTP server\nmay make before it reads a request (a bad Host, a body, URL or headers too large, a slow\nor malformed request) and, for listPets and getPet, the fake's 400 for a bad query or id.\nNo operation has a `default` response.\n",
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010/v1",
      "description": "Production (`{base_url}`): the fake's own origin, where `petstore-fake` and the in-process\ndoors answer. A deployed service has its own; the version prefix `/v1` is part of the base\naddress.\n"
    },
    {
      "url": "http://127.0.0.1:4011/v1",
      "description": "Staging (`{staging_base_url}`), same paths as production; the fake's staging origin."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "pets",
      "description": "Animals available for adoption."
    }
  ],
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "summary": "List animals",
        "description": "Returns a paginated list of animals. When `limit` is omitted, at most 20 animals are\nreturned; when `status` is given, only animals with that status are returned. Paging\nbeyond `limit` and paging metadata are not part of the interface.\n",
        "tags": [
          "pets"
        ],
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Maximum number of animals returned.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            }
          },
          {
            "name": "status",
            "in": "query",
            "required": false,
            "description": "Filter by availability.",
            "schema": {
              "type": "string",
              "description": "Availability of an animal.",
              "enum": [
                "available",
                "pending",
                "sold"
              ]
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The animals, at most `limit` of them.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "description": "A list of animals.",
                  "items": {
                    "description": "An animal, as returned by the service.",
                    "allOf": [
                      {
                        "type": "object",
                        "description": "Request body when adding an animal.",
                        "required": [
                          "name",
                          "categoryId"
                        ],
                        "properties": {
                          "name": {
                            "type": "string",
                            "description": "The animal's name."
                          },
                          "categoryId": {
                            "type": "integer",
                            "format": "int64",
                            "description": "Identifier of the category the animal belongs to."
                          },
                          "status": {
                            "type": "string",
                            "description": "Availability of an animal.",
                            "enum": [
                              "available",
                              "pending",
                              "sold"
                            ]
                          }
                        }
                      },
                      {
                        "type": "object",
                        "required": [
                          "id"
                        ],
                        "properties": {
                          "id": {
                            "type": "integer",
                            "format": "int64",
                            "description": "Unique identifier assigned by the service on creation."
                          }
                        }
                      }
                    ]
                  }
                }
              }
            }
          },
          "400": {
            "description": "Not in the interface. The request could not be read (malformed, or HTTP/1.1 without `Host`), or `limit` or `status` is malformed, out of range or repeated (the fake's default `badQuery`).",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "Missing or invalid API key.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "403": {
            "description": "Not in the interface. The `Host` header names none of the server's hosts (a guard against DNS rebinding).",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "408": {
            "description": "Not in the interface. The request's headers or body did not arrive in time.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "414": {
            "description": "Not in the interface. The path and query are longer than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "417": {
            "description": "Not in the interface. An `Expect` header other than `100-continue`.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "429": {
            "description": "Rate limit exceeded. The client backs off and retries after the time given in `Retry-After`.",
            "headers": {
              "Retry-After": {
                "description": "When the client may retry. The interface does not fix the format (delta-seconds or HTTP-date).",
                "required": true,
                "schema": {
                  "type": "string"
                }
              },
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "431": {
            "description": "Not in the interface. The request headers are larger than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          }
        }
      },
      "post": {
        "operationId": "createPet",
        "summary": "Add an animal",
        "description": "Adds an animal. `name` and `categoryId` are required; when either is absent the response is 400.",
        "tags": [
          "pets"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "description": "Request body when adding an animal.",
                "required": [
                  "name",
                  "categoryId"
                ],
                "properties": {
                  "name": {
                    "type": "string",
                    "description": "The animal's name."
                  },
                  "categoryId": {
                    "type": "integer",
                    "format": "int64",
                    "description": "Identifier of the category the animal belongs to."
                  },
                  "status": {
                    "type": "string",
                    "description": "Availability of an animal.",
                    "enum": [
                      "available",
                      "pending",
                      "sold"
                    ]
                  }
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Animal added; the body carries the assigned `id`.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "description": "An animal, as returned by the service.",
                  "allOf": [
                    {
                      "type": "object",
                      "description": "Request body when adding an animal.",
                      "required": [
                        "name",
                        "categoryId"
                      ],
                      "properties": {
                        "name": {
                          "type": "string",
                          "description": "The animal's name."
                        },
                        "categoryId": {
                          "type": "integer",
                          "format": "int64",
                          "description": "Identifier of the category the animal belongs to."
                        },
                        "status": {
                          "type": "string",
                          "description": "Availability of an animal.",
                          "enum": [
                            "available",
                            "pending",
                            "sold"
                          ]
                        }
                      }
                    },
                    {
                      "type": "object",
                      "required": [
                        "id"
                      ],
                      "properties": {
                        "id": {
                          "type": "integer",
                          "format": "int64",
                          "description": "Unique identifier assigned by the service on creation."
                        }
                      }
                    }
                  ]
                }
              }
            }
          },
          "400": {
            "description": "The body lacks required fields or has invalid values.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "Missing or invalid API key.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "403": {
            "description": "Not in the interface. The `Host` header names none of the server's hosts (a guard against DNS rebinding).",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "408": {
            "description": "Not in the interface. The request's headers or body did not arrive in time.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "413": {
            "description": "Not in the interface. The request body is larger than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "414": {
            "description": "Not in the interface. The path and query are longer than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "417": {
            "description": "Not in the interface. An `Expect` header other than `100-continue`.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "429": {
            "description": "Rate limit exceeded. The client backs off and retries after the time given in `Retry-After`.",
            "headers": {
              "Retry-After": {
                "description": "When the client may retry. The interface does not fix the format (delta-seconds or HTTP-date).",
                "required": true,
                "schema": {
                  "type": "string"
                }
              },
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "431": {
            "description": "Not in the interface. The request headers are larger than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "summary": "Get one animal (deprecated)",
        "description": "Deprecated: scheduled for removal on 5 December 2030. The replacement is `GET /pets`\nwith the `status` filter.\n",
        "deprecated": true,
        "x-sunset": "2030-12-05T00:00:00Z",
        "tags": [
          "pets"
        ],
        "parameters": [
          {
            "name": "petId",
            "in": "path",
            "required": true,
            "description": "The identifier of the animal.",
            "schema": {
              "type": "integer",
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The animal exists.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "description": "An animal, as returned by the service.",
                  "allOf": [
                    {
                      "type": "object",
                      "description": "Request body when adding an animal.",
                      "required": [
                        "name",
                        "categoryId"
                      ],
                      "properties": {
                        "name": {
                          "type": "string",
                          "description": "The animal's name."
                        },
                        "categoryId": {
                          "type": "integer",
                          "format": "int64",
                          "description": "Identifier of the category the animal belongs to."
                        },
                        "status": {
                          "type": "string",
                          "description": "Availability of an animal.",
                          "enum": [
                            "available",
                            "pending",
                            "sold"
                          ]
                        }
                      }
                    },
                    {
                      "type": "object",
                      "required": [
                        "id"
                      ],
                      "properties": {
                        "id": {
                          "type": "integer",
                          "format": "int64",
                          "description": "Unique identifier assigned by the service on creation."
                        }
                      }
                    }
                  ]
                }
              }
            }
          },
          "400": {
            "description": "Not in the interface. The request could not be read (malformed, or HTTP/1.1 without `Host`), or `petId` is not an int64 and the fake was started with `malformedIdStatus: 400`.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "Missing or invalid API key.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "403": {
            "description": "Not in the interface. The `Host` header names none of the server's hosts (a guard against DNS rebinding).",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "404": {
            "description": "The requested resource could not be found.",
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "408": {
            "description": "Not in the interface. The request's headers or body did not arrive in time.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "414": {
            "description": "Not in the interface. The path and query are longer than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "417": {
            "description": "Not in the interface. An `Expect` header other than `100-continue`.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "429": {
            "description": "Rate limit exceeded. The client backs off and retries after the time given in `Retry-After`.",
            "headers": {
              "Retry-After": {
                "description": "When the client may retry. The interface does not fix the format (delta-seconds or HTTP-date).",
                "required": true,
                "schema": {
                  "type": "string"
                }
              },
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          },
          "431": {
            "description": "Not in the interface. The request headers are larger than the server reads.",
            "x-not-in-interface": true,
            "headers": {
              "X-RateLimit-Limit": {
                "description": "Limit applying to the caller.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Remaining": {
                "description": "Requests remaining in the current window.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              },
              "X-RateLimit-Reset": {
                "description": "Unix timestamp at which the limit resets.",
                "required": true,
                "schema": {
                  "type": "integer"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "description": "Body of every error response.",
                  "required": [
                    "code",
                    "message",
                    "status"
                  ],
                  "properties": {
                    "code": {
                      "type": "string",
                      "description": "Machine-readable error code."
                    },
                    "message": {
                      "type": "string",
                      "description": "Human-readable description."
                    },
                    "status": {
                      "type": "integer",
                      "description": "The HTTP status code of the response."
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <API_KEY>` on every operation. How a key is obtained is not part of the interface."
      }
    },
    "parameters": {
      "limit": {
        "name": "limit",
        "in": "query",
        "required": false,
        "description": "Maximum number of animals returned.",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 20
        }
      },
      "status": {
        "name": "status",
        "in": "query",
        "required": false,
        "description": "Filter by availability.",
        "schema": {
          "type": "string",
          "description": "Availability of an animal.",
          "enum": [
            "available",
            "pending",
            "sold"
          ]
        }
      }
    },
    "headers": {
      "X-RateLimit-Limit": {
        "description": "Limit applying to the caller.",
        "required": true,
        "schema": {
          "type": "integer"
        }
      },
      "X-RateLimit-Remaining": {
        "description": "Requests remaining in the current window.",
        "required": true,
        "schema": {
          "type": "integer"
        }
      },
      "X-RateLimit-Reset": {
        "description": "Unix timestamp at which the limit resets.",
        "required": true,
        "schema": {
          "type": "integer"
        }
      },
      "Retry-After": {
        "description": "When the client may retry. The interface does not fix the format (delta-seconds or HTTP-date).",
        "required": true,
        "schema": {
          "type": "string"
        }
      }
    },
    "schemas": {
      "PetStatus": {
        "type": "string",
        "description": "Availability of an animal.",
        "enum": [
          "available",
          "pending",
          "sold"
        ]
      },
      "NewPet": {
        "type": "object",
        "description": "Request body when adding an animal.",
        "required": [
          "name",
          "categoryId"
        ],
        "properties": {
          "name": {
            "type": "string",
            "description": "The animal's name."
          },
          "categoryId": {
            "type": "integer",
            "format": "int64",
            "description": "Identifier of the category the animal belongs to."
          },
          "status": {
            "type": "string",
            "description": "Availability of an animal.",
            "enum": [
              "available",
              "pending",
              "sold"
            ]
          }
        }
      },
      "Pet": {
        "description": "An animal, as returned by the service.",
        "allOf": [
          {
            "type": "object",
            "description": "Request body when adding an animal.",
            "required": [
              "name",
              "categoryId"
            ],
            "properties": {
              "name": {
                "type": "string",
                "description": "The animal's name."
              },
              "categoryId": {
                "type": "integer",
                "format": "int64",
                "description": "Identifier of the category the animal belongs to."
              },
              "status": {
                "type": "string",
                "description": "Availability of an animal.",
                "enum": [
                  "available",
                  "pending",
                  "sold"
                ]
              }
            }
          },
          {
            "type": "object",
            "required": [
              "id"
            ],
            "properties": {
              "id": {
                "type": "integer",
                "format": "int64",
                "description": "Unique identifier assigned by the service on creation."
              }
            }
          }
        ]
      },
      "Pets": {
        "type": "array",
        "description": "A list of animals.",
        "items": {
          "description": "An animal, as returned by the service.",
          "allOf": [
            {
              "type": "object",
              "description": "Request body when adding an animal.",
              "required": [
                "name",
                "categoryId"
              ],
              "properties": {
                "name": {
                  "type": "string",
                  "description": "The animal's name."
                },
                "categoryId": {
                  "type": "integer",
                  "format": "int64",
                  "description": "Identifier of the category the animal belongs to."
                },
                "status": {
                  "type": "string",
                  "description": "Availability of an animal.",
                  "enum": [
                    "available",
                    "pending",
                    "sold"
                  ]
                }
              }
            },
            {
              "type": "object",
              "required": [
                "id"
              ],
              "properties": {
                "id": {
                  "type": "integer",
                  "format": "int64",
                  "description": "Unique identifier assigned by the service on creation."
                }
              }
            }
          ]
        }
      },
      "Error": {
        "type": "object",
        "description": "Body of every error response.",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string",
            "description": "Machine-readable error code."
          },
          "message": {
            "type": "string",
            "description": "Human-readable description."
          },
          "status": {
            "type": "integer",
            "description": "The HTTP status code of the response."
          }
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "The body lacks required fields or has invalid values.",
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "Unauthorized": {
        "description": "Missing or invalid API key.",
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "NotFound": {
        "description": "The requested resource could not be found.",
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "Rate limit exceeded. The client backs off and retries after the time given in `Retry-After`.",
        "headers": {
          "Retry-After": {
            "description": "When the client may retry. The interface does not fix the format (delta-seconds or HTTP-date).",
            "required": true,
            "schema": {
              "type": "string"
            }
          },
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "InvalidQuery": {
        "description": "Not in the interface. The request could not be read (malformed, or HTTP/1.1 without `Host`), or `limit` or `status` is malformed, out of range or repeated (the fake's default `badQuery`).",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "MalformedRequest": {
        "description": "Not in the interface. The request could not be read (malformed, or HTTP/1.1 without `Host`), or `petId` is not an int64 and the fake was started with `malformedIdStatus: 400`.",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "HostNotAllowed": {
        "description": "Not in the interface. The `Host` header names none of the server's hosts (a guard against DNS rebinding).",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "RequestTimeout": {
        "description": "Not in the interface. The request's headers or body did not arrive in time.",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "Not in the interface. The request body is larger than the server reads.",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "UriTooLong": {
        "description": "Not in the interface. The path and query are longer than the server reads.",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "ExpectationFailed": {
        "description": "Not in the interface. An `Expect` header other than `100-continue`.",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      },
      "RequestHeaderFieldsTooLarge": {
        "description": "Not in the interface. The request headers are larger than the server reads.",
        "x-not-in-interface": true,
        "headers": {
          "X-RateLimit-Limit": {
            "description": "Limit applying to the caller.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Remaining": {
            "description": "Requests remaining in the current window.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          },
          "X-RateLimit-Reset": {
            "description": "Unix timestamp at which the limit resets.",
            "required": true,
            "schema": {
              "type": "integer"
            }
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "description": "Body of every error response.",
              "required": [
                "code",
                "message",
                "status"
              ],
              "properties": {
                "code": {
                  "type": "string",
                  "description": "Machine-readable error code."
                },
                "message": {
                  "type": "string",
                  "description": "Human-readable description."
                },
                "status": {
                  "type": "integer",
                  "description": "The HTTP status code of the response."
                }
              }
            }
          }
        }
      }
    }
  }
} as const;
